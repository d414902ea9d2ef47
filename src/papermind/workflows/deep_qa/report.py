"""Assemble a QAReport from a finished run's state, and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from papermind import reports
from papermind.domain.answer import AnswerSentence, Citation, EvidenceItem, QAKind, QAReport
from papermind.domain.evidence import Evidence, VerificationSummary


def assemble_report(state: Mapping[str, Any], *, kind: QAKind, question: str,
                    paper_ids: list[str], title: str = "", demo_quality: bool = False,
                    models: dict[str, str] | None = None,
                    usage: dict[str, object] | None = None) -> QAReport:
    """The report of a run; verification counts every citation of the answer as the model
    wrote it (kept and dropped sentences)."""
    sentences = list(state.get("sentences", []))
    dropped = list(state.get("dropped", []))
    cited = [c.evidence for s in [*sentences, *dropped] for c in s.citations]
    outcomes = state.get("outcomes", {})
    return QAReport(
        kind=kind, question=question, paper_ids=paper_ids, title=title,
        status=state.get("status", "insufficient_evidence"), sentences=sentences,
        dropped=dropped,
        plan=list(state.get("plan", [])), outcomes=list(outcomes.values()),
        strategies=list(state.get("strategies", [])), evidence=list(state.get("evidence", [])),
        contradictions=list(state.get("contradictions", [])),
        history=list(state.get("history", [])), stop_reason=state.get("stop_reason", ""),
        notes=list(dict.fromkeys(state.get("notes", []))), demo_quality=demo_quality,
        models=models or {}, usage=usage or {}, verification=VerificationSummary.of(cited))


def _evidence(evidence: Evidence) -> dict[str, Any]:
    return reports.evidence_json(evidence)


def _row(item: EvidenceItem) -> dict[str, Any]:
    """An evidence-table row: the item's source fields with the evidence JSON inline."""
    fields = item.model_dump(mode="json", exclude={"evidence"})
    return {**fields, **_evidence(item.evidence)}


def _sentence(s: AnswerSentence) -> dict[str, Any]:
    return {"text": s.text, "cites": s.cites, "support": s.support, "reason": s.reason,
            "verified": s.verified,
            "citations": [{"evidence_id": c.evidence_id, "paper_id": c.paper_id,
                           **_evidence(c.evidence)} for c in s.citations]}


def report_json(report: QAReport) -> dict[str, Any]:
    """JSON with every evidence object in the one evidence shape (``reports.evidence_json``)."""
    data = report.model_dump(mode="json", exclude={"evidence", "sentences", "dropped",
                                                   "verification"})
    data["answer"] = report.text
    data["sentences"] = [_sentence(s) for s in report.sentences]
    data["dropped"] = [_sentence(s) for s in report.dropped]
    data["evidence"] = [_row(item) for item in report.evidence]
    cited = [c.evidence for s in [*report.sentences, *report.dropped] for c in s.citations]
    data["verification"] = reports.summary_json(cited)
    data["source_papers"] = report.source_papers
    return data


def report_from_json(data: Mapping[str, Any]) -> QAReport:
    """A report read back from its ``report_json`` form (a stored report.json)."""
    fields = {k: v for k, v in data.items() if k in QAReport.model_fields}
    fields["sentences"] = [_sentence_back(s) for s in data.get("sentences", [])]
    fields["dropped"] = [_sentence_back(s) for s in data.get("dropped", [])]
    fields["evidence"] = [_row_back(row) for row in data.get("evidence", [])]
    cited = [c.evidence for s in [*fields["sentences"], *fields["dropped"]] for c in s.citations]
    fields["verification"] = VerificationSummary.of(cited)
    return QAReport.model_validate(fields)


def _sentence_back(data: Mapping[str, Any]) -> AnswerSentence:
    citations = [Citation(evidence_id=str(c.get("evidence_id", "")),
                          paper_id=str(c.get("paper_id", "")),
                          evidence=reports.as_evidence(c, str(c.get("paper_id", ""))))
                 for c in data.get("citations", [])]
    return AnswerSentence.model_validate({**data, "citations": citations})


def _row_back(row: Mapping[str, Any]) -> EvidenceItem:
    fields = {k: v for k, v in row.items() if k in EvidenceItem.model_fields}
    fields["evidence"] = reports.as_evidence(row, str(row.get("paper_id", "")))
    return EvidenceItem.model_validate(fields)
