"""A small scholarly record and a paper whose bibliography mixes real, changed, retracted
and invented works (the mock sources serve the record)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.pdf_factory import paper_pdf
from tests.scholar.mock_sources import Work

NIPS = "Advances in Neural Information Processing Systems"

RECORD = [
    Work("Attention is all you need", ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar",
                                       "Jakob Uszkoreit"], 2017, NIPS, doi="10.5555/3295222.3295349",
         oa_pdf=True),
    Work("Deep residual learning for image recognition",
         ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"], 2016,
         "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
         doi="10.1109/cvpr.2016.90", kind="proceedings-article"),
    Work("Long short-term memory", ["Sepp Hochreiter", "Jürgen Schmidhuber"], 1997,
         "Neural Computation", doi="10.1162/neco.1997.9.8.1735"),
    Work("Generative adversarial nets", ["Ian Goodfellow", "Jean Pouget-Abadie", "Mehdi Mirza",
                                         "Bing Xu"], 2014, NIPS, doi="10.5555/2969033.2969125"),
    Work("Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive "
         "developmental disorder in children", ["Andrew J Wakefield", "Simon H Murch",
                                                 "Andrew Anthony"], 1998, "The Lancet",
         doi="10.1016/s0140-6736(97)11096-0", retracted=True),
    Work("BERT: Pre-training of deep bidirectional transformers for language understanding",
         ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"], 2018, "arXiv",
         arxiv="1810.04805", kind="preprint",
         abstract="We introduce a new language representation model called BERT."),
    Work("BERT: Pre-training of deep bidirectional transformers for language understanding",
         ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"], 2019,
         "Proceedings of the 2019 Conference of the North American Chapter of the Association "
         "for Computational Linguistics", doi="10.18653/v1/n19-1423", kind="proceedings-article"),
    Work("Adam: A method for stochastic optimization", ["Diederik P. Kingma", "Jimmy Ba"], 2014,
         "arXiv", arxiv="1412.6980", kind="preprint", oa_pdf=True),
]

PAPER = """# Checking Citations Against the Record

Ada Lovelace

## Abstract

We cite some works [1-10].

## 1 Introduction

Transformers [1] and residual networks [2] changed the field [3, 4, 5, 6, 7, 8, 9].

## References

[1] A. Vaswani, N. Shazeer, N. Parmar, and J. Uszkoreit. Attention is all you need. In Advances in Neural Information Processing Systems, 2017.
[2] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for image recognition. In CVPR, 2016. doi:10.1109/cvpr.2016.90
[3] S. Hochreiter and J. Schmidhuber. Long short-term memory. Neural Computation, 9(8):1735-1780, 2001.
[4] I. Sutskever, J. Pouget-Abadie, M. Mirza, and B. Xu. Generative adversarial nets. In Advances in Neural Information Processing Systems, 2014.
[5] A. J. Wakefield, S. H. Murch, and A. Anthony. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. The Lancet, 351(9103):637-641, 1998.
[6] J. Devlin, M. Chang, K. Lee, and K. Toutanova. BERT: Pre-training of deep bidirectional transformers for language understanding. arXiv preprint arXiv:1810.04805, 2018.
[7] M. Rossi and L. Chen. Quantum gradient flows for sparse retrieval augmentation. In International Conference on Machine Learning, 2023.
[8] T. Nguyen and P. Okafor. Neural topology of citation graphs in federated archives. Journal of Imaginary Results, 12(3):1-20, 2021. doi:10.9999/fake.2021.001
[9] 2020.
[10] R. Okonkwo. Adaptive lattice priors for citation forecasting. Journal of Forecasting Studies, 3(2):10-19, 2022. doi:10.1162/neco.1997.9.8.1735
"""

AUTHOR_YEAR = """# Some Paper

Ada Lovelace

## Abstract

We cite (Vaswani et al., 2017) and others.

## References

Vaswani, A., Shazeer, N., Parmar, N., & Uszkoreit, J. (2017). Attention is all you need. In Advances in Neural Information Processing Systems (pp. 5998-6008).

He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (pp. 770-778).

Hochreiter, S., & Schmidhuber, J. (1999). Long short-term memory. Neural Computation, 9(8), 1735-1780.

Mirza, M., Goodfellow, I., & Xu, B. (2014). Generative adversarial nets. In Advances in Neural Information Processing Systems.

Wakefield, A. J., Murch, S. H., & Anthony, A. (1998). Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. The Lancet, 351(9103), 637-641.

Devlin, J., Chang, M.-W., Lee, K., & Toutanova, K. (2019). BERT: Pre-training of deep bidirectional transformers for language understanding. In Proceedings of NAACL-HLT (pp. 4171-4186).

Kingma, D. P., & Ba, J. (2015). Adam: A method for stochastic optimization. In International Conference on Learning Representations.

Rossi, M., & Chen, L. (2023). Quantum gradient flows for sparse retrieval augmentation. Journal of Machine Learning Research, 24(1), 1-30.
"""
"""The same kind of bibliography in author-year style, with versions: BERT cited as
published (2019; OpenAlex also has the 2018 preprint), Adam cited as published at ICLR 2015
where the record knows only the 2014 preprint."""

EXPECTED_AUTHOR_YEAR = {1: ("verified", []), 2: ("verified", []), 3: ("mismatch", ["year"]),
                        4: ("mismatch", ["authors"]), 5: ("verified", []),
                        6: ("verified", []), 7: ("verified", []), 8: ("not_found", [])}

EXPECTED = {1: ("verified", [], False), 2: ("verified", [], False),
            3: ("mismatch", ["year"], False), 4: ("mismatch", ["authors"], False),
            5: ("verified", [], True), 6: ("verified", [], False),
            7: ("not_found", [], False), 8: ("not_found", [], False), 9: ("skipped", [], False),
            10: ("not_found", [], False)}
"""index -> (status, fields named, retracted)."""


def write_pdf(path: Path) -> Path:
    """PAPER as a one-page PDF, each entry wrapped with a hanging indent."""
    head, refs = PAPER.split("## References\n\n")
    body = ["Abstract", "We cite some works [1-10].", "1 Introduction",
            "Transformers [1] and residual networks [2] changed the field [3-9].", "References"]
    for entry in refs.strip().splitlines():
        line = ""
        for word in entry.split():
            if len(line) + len(word) > 85:
                body.append(line)
                line = "    " + word
            else:
                line = f"{line} {word}" if line else word
        body.append(line)
    paper_pdf(path, "Checking Citations Against the Record", body=body)
    return path
