"""Small hand-built papers for grounding tests: pages of lines with boxes."""

from __future__ import annotations

from papermind.domain import Box, Caption, Equation, Line, Page, Paper, Reference, Section


def page(number: int, texts: list[str], *, column_x: float = 72.0, top: float = 72.0,
         start: int = 1) -> list[Line]:
    """Lines ``start..`` of one column at ``column_x`` (12 pt apart)."""
    return [Line(page=number, n=start + i, text=t,
                 box=Box(page=number, x0=column_x, y0=top + 12 * i, x1=column_x + 230,
                         y1=top + 12 * i + 10))
            for i, t in enumerate(texts)]


def paper(*pages: list[Line], **fields: object) -> Paper:
    """A Paper whose page k holds the lines of ``pages[k-1]``."""
    built = [Page(number=i, width=612, height=792, lines=lines) for i, lines in enumerate(pages, 1)]
    return Paper(id="test-paper", pages=built, **fields)  # type: ignore[arg-type]


BODY_1 = [
    "Deep networks are trained with stochastic gra-",
    "dient descent. The eﬃcient model reaches 84.7% accuracy",
    "on CIFAR-10 after 200 epochs, which is state-of-the-",
    "art for this budget (Ho et al., 2020).",
]
COLUMN_2 = [
    "A second column starts here: the learning rate",
    "matters a lot for small batches, as Table 2 shows.",
]
BODY_2 = [
    "Figure 3: Accuracy per epoch on CIFAR-10.",
    "We also observe that “the learning rate” is the most",
    "important hyper-parameter [3, 5-7], while the batch size is not.",
]


def sample_paper() -> Paper:
    """Two pages; page 1 has two columns; a figure caption opens page 2."""
    first = page(1, BODY_1) + page(1, COLUMN_2, column_x=320, start=len(BODY_1) + 1)
    return paper(
        first, page(2, BODY_2),
        sections=[Section(id="s1", title="Introduction", number="1", level=1, page=1, line=1),
                  Section(id="s2", title="Setup", number="2.1", level=2, page=1, line=3)],
        captions=[Caption(id="c1", text=BODY_2[0], kind="figure", label="3")],
        equations=[Equation(id="e1", text="y = f(x) (4)", label="4")],
    )


def references_paper() -> Paper:
    refs = [
        Reference(key="ho2020", index=1, raw="Jonathan Ho, Ajay Jain, and Pieter Abbeel. Denoising "
                  "diffusion probabilistic models. In NeurIPS, 2020.",
                  authors=["Jonathan Ho", "Ajay Jain", "Pieter Abbeel"],
                  title="Denoising diffusion probabilistic models", year=2020),
        Reference(key="karras2022a", index=2, raw="Tero Karras, M. Aittala. Elucidating the design "
                  "space of diffusion-based generative models. ArXiv, 2022a.",
                  authors=["Tero Karras", "M. Aittala"],
                  title="Elucidating the design space of diffusion-based generative models", year=2022),
        Reference(key="karras2022b", index=3, raw="Tero Karras and Samuli Laine. A style-based "
                  "generator architecture. In CVPR, 2022b.", authors=["Tero Karras", "Samuli Laine"],
                  title="A style-based generator architecture", year=2022),
        Reference(key="kingma2014", index=4, raw="Diederik P Kingma and Jimmy Ba. Adam: A method for "
                  "stochastic optimization. arXiv preprint arXiv:1412.6980, 2014.", authors=[],
                  title=None, year=None),
        Reference(key="maaten2008", index=5, raw="Laurens van der Maaten and Geoffrey Hinton. "
                  "Visualizing data using t-SNE. JMLR, 2008.",
                  authors=["Laurens van der Maaten", "Geoffrey Hinton"],
                  title="Visualizing data using t-SNE", year=2008),
    ]
    return paper(page(1, ["Body text (Ho et al., 2020) and Kingma & Ba (2014)."]), references=refs)
