"""A small Chinese paper as a born-digital PDF (reportlab), for the CJK ingestion tests.

Fonts: an embedded TrueType CJK font when one is installed (Debian ``fonts-wqy-zenhei``;
Debian's Noto CJK fonts are CFF-outline OpenType, which reportlab cannot embed), else
reportlab's built-in ``STSong-Light`` CID font (not embedded; its UCS-2 CMap gives the
text layer, which is all ingestion reads).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

TRUETYPE_CJK = (Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),
                Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"))
TITLE = "基于注意力机制的中文文本分类方法研究"
BODY = ("近年来，深度学习方法在自然语言处理领域取得了显著进展。本文提出一种基于注意力机制的"
        "中文文本分类模型，在THUCNews数据集上的准确率达到９５.３%，比基线方法提高２.１个百分点"
        "（张三等, 2020）。实验表明，该方法对长文本同样有效[1]。")
SECTIONS = [("1 引言", 1, "引言"), ("2 相关工作", 1, "相关工作"),
            ("2.1 注意力机制", 2, "注意力机制"), ("3 实验", 1, "实验"),
            ("参考文献", 1, "参考文献")]
REFERENCES = ["[1] 张三, 李四. 中文文本分类综述[J]. 计算机学报, 2020, 43(1): 1-10.",
              "[2] Vaswani A, Shazeer N, Parmar N, et al. Attention is all you need[C]// "
              "NeurIPS. 2017: 5998-6008.",
              "[3] 王五. 深度学习[M]. 北京: 清华大学出版社, 2019."]


def truetype_cjk_font() -> Path | None:
    """An installed TrueType-outline CJK font reportlab can embed, or None."""
    return next((p for p in TRUETYPE_CJK if p.is_file()), None)


def _font(embedded: bool) -> str:
    if not embedded:
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
        return "STSong-Light"
    path = truetype_cjk_font()
    if path is None:
        raise FileNotFoundError("no TrueType CJK font installed (apt-get install fonts-wqy-zenhei)")
    pdfmetrics.registerFont(TTFont("CJKEmbedded", str(path), subfontIndex=0))
    return "CJKEmbedded"


def wrap(text: str, width: int = 34) -> list[str]:
    """Fixed-width lines, as a Chinese typesetter breaks them (anywhere between characters)."""
    return [text[i:i + width] for i in range(0, len(text), width)]


def chinese_paper_pdf(path: Path, *, embedded: bool = False) -> Path:
    """Write the sample paper: title, authors, 摘要, numbered sections, references."""
    font = _font(embedded)
    c = canvas.Canvas(str(path), pagesize=A4)
    y = 780.0

    def line(text: str, size: float = 10.5, x: float = 60, gap: float = 16) -> None:
        nonlocal y
        if y < 80:
            c.showPage()
            y = 780.0
        c.setFont(font, size)
        c.drawString(x, y, text)
        y -= gap

    line(TITLE, 18, x=110, gap=30)
    line("张三  李四  王五", 12, x=220, gap=24)
    line("摘要", 14, gap=20)
    for text in wrap(BODY):
        line(text)
    y -= 8
    for heading, _, _ in SECTIONS[:-1]:
        line(heading, 14 if heading.count(".") == 0 else 12, gap=20)
        for text in wrap(BODY):
            line(text)
        y -= 8
    line(SECTIONS[-1][0], 14, gap=20)
    for ref in REFERENCES:
        for k, text in enumerate(wrap(ref, 40)):
            line(text, 9, x=60 if k == 0 else 75, gap=13)
    c.showPage()
    c.save()
    return path
