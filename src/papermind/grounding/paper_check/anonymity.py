"""What gives the authors away in a double-blind submission: self-identifying citations,
acknowledgements, funding lines, names or e-mails before the abstract, links to
repositories that are not anonymised. Reads Spots, so a PDF, a text or a LaTeX source alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.domain.check import CheckFinding
from papermind.grounding.paper_check.spots import Spot, finding

_WORK = r"(?:work|paper|publication|study|studies|research|article|thesis)"
_STRONG = re.compile(
    rf"\b(?:our|my)\s+(?:own\s+)?(?:previous|prior|earlier|recent|past|preliminary|former)\s+{_WORK}"
    rf"|\b(?:this|the present|the current)\s+(?:paper|work)\s+extends\s+our\b"
    rf"|\bwe\s+(?:have\s+)?(?:previously|earlier|recently|already)\s+(?:showed|shown|proposed|"
    rf"introduced|presented|demonstrated|developed|studied|established|reported|published)\b"
    rf"|\bas\s+we\s+(?:showed|have\s+shown|demonstrated|proved|argued|reported)\s+(?:in|before)\b",
    re.IGNORECASE)
_CITE = r"(?:\[\s*\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*\]|\([A-Z][^()]{0,80}?(?:19|20)\d\d[a-z]?\)|\\cite\w*\{[^}]*\})"
_WEAK = re.compile(r"\b(?:our|my)\s+(?:own\s+)?(?:previous|prior|earlier|recent)\s+"
                   r"(?:[\w-]+\s+){0,2}?[\w-]+\s*", re.IGNORECASE)
"""Needs a citation right after it: 'our recent results [12]' (not 'our method and previous
SOTA methods [39]', nor 'our previous analysis' of this paper)."""
_THEIRS = re.compile(r"\bpart\s+of\s+the\b|\b(?:provided|released|maintained)\s+by\b|"
                     r"\bpublic\s+[\w-]+\s+(?:\([^)]*\)\s+)?repositor|\bet\s+al\.", re.IGNORECASE)
"""A linked repository said to be someone else's ('part of the public bgmol repository')."""
_WITH_CITATION = re.compile(
    rf"\b(?:in|by)\s+{_CITE},?\s+we\s+(?:have\s+)?(?:showed|shown|proposed|introduced|presented|"
    rf"demonstrated|developed|studied|established|reported|argued)\b"
    rf"|\bour\s+(?:[\w-]+\s+){{0,3}}?(?:paper|work|study|article)\s*{_CITE}", re.IGNORECASE)
"""'In [12], we showed', 'our ICML paper (Smith et al., 2020)'."""
_CITED = re.compile(r"\[\s*\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\s*\]|\([^()]*(?:19|20)\d\d[a-z]?\)"
                    r"|\\cite\w*\{")
_ACK = re.compile(r"^\s*(?:#+\s*)?(?:\\section\*?\{)?(?:\d+\.?\s*)?acknowledge?ments?\b",
                  re.IGNORECASE)
_FUNDING = re.compile(
    r"\b(?:funded|supported|sponsored|financed)\s+(?:in\s+part\s+|partly\s+|partially\s+)?by\b"
    r".{0,120}?\b(?:grants?|foundation|NSF|NIH|DARPA|ERC|awards?|fellowships?|council|agency|"
    r"program(?:me)?|ministry)\b"
    r"|\bgrant\s+(?:no\.?|number|#|agreement)\s*\w", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_REPO = re.compile(r"(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|"
                   r"huggingface\.co)/[\w.-]+", re.IGNORECASE)
_OURS = re.compile(
    r"\bour\s+(?:[\w-]+\s+){0,3}?(?:code|implementation|repository|library|models?|datasets?|"
    r"data|software|package|project|tool|benchmark)s?\b"
    r"|\b(?:code|implementation|models?|data(?:set)?s?|software)\s+(?:is|are|will\s+be)\s+"
    r"(?:publicly\s+|made\s+|freely\s+)?(?:available|released|open[- ]sourced)"
    r"|\bwe\s+(?:will\s+)?(?:release|open-source|open\s+source|make\s+\w+\s+(?:publicly\s+)?available)\b"
    r"|\bto\s+reproduce\s+our\b", re.IGNORECASE)
"""The link is the authors' own: 'our code', 'code is available at', 'we release'."""
_FRONT_END = re.compile(r"^\s*(?:#+\s*)?(?:\\begin\{abstract\}|abstract\b|\d*\.?\s*introduction\b)",
                        re.IGNORECASE)
_PRINTED_ANONYMOUS = re.compile(r"\banonymous\s+(?:authors?|author\(s\)|submission)\b",
                                re.IGNORECASE)
"""What a venue style prints in place of the authors in review mode."""
FRONT_LINES = 60
"""The front matter (names, e-mails) is read up to the abstract, at most this many lines."""


def anonymity_findings(spots: Sequence[Spot]) -> list[CheckFinding]:
    """Every anonymity finding, in document order."""
    out = _front_matter(spots)
    for i, spot in enumerate(spots):
        text = spot.text
        if _STRONG.search(text) or _WITH_CITATION.search(text) or _cited_own(text):
            out.append(finding("self_identifying", "high", "anonymity",
                               "this sentence identifies the authors as the authors of a cited work",
                               spot, fix="cite your own work in the third person "
                                         "('Smith et al. (2020) showed')"))
        if _ACK.match(text):
            out.append(finding("acknowledgements", "medium", "anonymity",
                               "acknowledgements in a double-blind submission", spot,
                               fix="remove the acknowledgements until the camera-ready version"))
        elif _FUNDING.search(text):
            out.append(finding("funding_line", "medium", "anonymity",
                               "a funding line names who supports the authors", spot,
                               fix="remove funding details until the camera-ready version"))
        repo = _REPO.search(text)
        before = spots[i - 1].text if i else ""
        if repo and not re.search(r"anonym|upon[- ]acceptance", text, re.IGNORECASE) and \
                (_OURS.search(text) or _OURS.search(before)) and not _THEIRS.search(text):
            out.append(finding("non_anonymous_link", "high", "anonymity",
                               f"{repo.group(0)} links to a repository that may name the authors",
                               spot, fix="use an anonymised repository (e.g. anonymous.4open.science)"))
    return out


def _cited_own(text: str) -> bool:
    """'our recent results [12]': the authors' earlier work, cited right after."""
    return any(_CITED.search(text[m.end():m.end() + 40]) for m in _WEAK.finditer(text))


def _front_matter(spots: Sequence[Spot]) -> list[CheckFinding]:
    """One finding for the e-mail addresses printed before the abstract, if any."""
    front = []
    for spot in spots[:FRONT_LINES]:
        if _FRONT_END.match(spot.text):
            break
        front.append(spot)
    if any(_PRINTED_ANONYMOUS.search(s.text) for s in front):
        return []  # the style printed 'Anonymous authors': an address near it is not theirs
    mails = [s for s in front if _EMAIL.search(s.text) and "anonymous" not in s.text.lower()]
    if not mails:
        return []
    return [finding("author_identity", "high", "anonymity",
                    "the first page prints the authors' e-mail addresses (and so their names)",
                    mails[0], fix="replace the author block with 'Anonymous authors'")]
