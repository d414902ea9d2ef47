"""Text of PaperMind's bundled example paper (fictional; written for this project)."""

from __future__ import annotations

TITLE = "Budgeted Evidence Retrieval for Question Answering over Long Scientific Papers"

AUTHORS = [
    ("Mira Okonkwo", "Institute for Document Intelligence, Lakeside University"),
    ("Tomas Lindqvist", "Institute for Document Intelligence, Lakeside University"),
    ("Hana Ishikawa", "Institute for Document Intelligence, Lakeside University"),
]

ABSTRACT = (
    "Question answering over scientific papers requires evidence that is spread across long "
    "documents, while the language models that read this evidence accept only a limited number "
    "of tokens. We study evidence retrieval under an explicit token budget. Our method, BERT-free "
    "Budgeted Selection (BBS), scores every passage with a mixture of lexical and dense relevance "
    "and then selects passages by solving a small knapsack problem that rewards coverage of the "
    "question terms and penalises redundancy. On a collection of 1,204 questions about 312 papers, "
    "BBS recovers 71.4% of the gold evidence paragraphs within a budget of 1,024 tokens, an "
    "improvement of 9.2 points over taking the top-ranked passages, and it reduces the share of "
    "answers that cite unsupported passages from 18.3% to 11.7%. The selection step adds less "
    "than four milliseconds per question. We release our annotation guidelines and the scripts "
    "that reproduce every table."
)

P = "p"
SECTIONS: list[tuple] = [
    ("h1", "1 Introduction"),
    (P, "Readers of a scientific paper rarely need the whole document to answer a specific "
        "question. A question about the size of a training set is answered by one sentence in "
        "the experimental section; a question about why a method fails on a benchmark may need "
        "a paragraph of analysis, a table and a caption. Systems that answer such questions with "
        "a language model must first decide which parts of the paper to show it. Long-context "
        "models make this decision less pressing, but they remain expensive, and several studies "
        "report that accuracy drops when the relevant passage sits in the middle of a long "
        "input [1].", "first"),
    (P, "Most retrieval pipelines for this task rank passages and keep the top k of them [2, 5]. "
        "This is simple, but it ignores two facts about scientific papers. First, passages differ "
        "greatly in length: a caption may hold twenty tokens and a related-work paragraph four "
        "hundred, so a fixed k wastes the budget on long passages or starves the reader of short "
        "ones. Second, the top-ranked passages are often near duplicates, such as the abstract, "
        "the introduction and the conclusion restating the same claim, so the evidence they add "
        "overlaps while other parts of the question remain uncovered."),
    (P, "We therefore treat evidence retrieval as selection under a token budget. Each passage "
        "receives a relevance score that mixes a lexical and a dense signal, following the "
        "observation that the two fail on different questions [1, 3-4]. A selection step then "
        "picks the set of passages that maximises relevance and coverage of the question terms "
        "subject to the budget, with a penalty for redundancy. The step is a small knapsack "
        "problem that a greedy algorithm solves within a factor of the optimum for the objective "
        "we use, and it runs in a few milliseconds."),
    (P, "Our contributions are threefold. We define a budgeted evidence retrieval task together "
        "with an evaluation protocol that measures evidence recall at a fixed number of tokens "
        "instead of a fixed number of passages. We propose BBS, a selection method that needs no "
        "training beyond the two relevance models it combines. Finally, we show on a new "
        "collection of questions about machine learning papers that BBS improves evidence recall "
        "and reduces unsupported citations in generated answers."),
    ("h1", "2 Related Work"),
    (P, "Passage retrieval for question answering has moved from lexical ranking functions to "
        "learned dense encoders and to hybrids of both [2]. Hybrid ranking with reciprocal rank "
        "fusion is a strong baseline that needs no tuning [3]. Our relevance score is a weighted "
        "sum rather than a rank fusion because the selection step needs calibrated scores, not "
        "only an order.", "first"),
    (P, "Question answering over scientific papers has its own benchmarks, in which questions "
        "are written by readers who have seen only the title and abstract and answers are "
        "grounded in evidence paragraphs [4]. These benchmarks show that evidence selection, not "
        "answer generation, limits the accuracy of current systems. Work on long-context "
        "language models reports a related finding: models use information at the start and the "
        "end of their input more reliably than information in the middle [1]."),
    (P, "Budgeted selection has a long history in extractive summarisation, where sentences are "
        "chosen to cover the important concepts of a document within a length limit. Maximal "
        "marginal relevance trades relevance against redundancy with a single parameter [6]. We "
        "borrow this trade-off but score coverage against the question rather than against the "
        "document, and we measure the budget in the tokens of the reading model."),
    ("h1", "3 Method"),
    (P, "Given a question q and a paper split into passages p<sub>1</sub>, ..., p<sub>n</sub> "
        "with token lengths l<sub>1</sub>, ..., l<sub>n</sub>, the task is to return a set S of "
        "passages whose total length does not exceed a budget B and that contains the evidence "
        "needed to answer q. Passages are paragraphs, captions and equations as produced by the "
        "document parser, each with its page and line numbers so that an answer can cite them.",
     "first"),
    ("h2", "3.1 Passage Scoring"),
    (P, "We score each passage with a convex combination of a lexical score and a dense score. "
        "The lexical score is BM25 with the usual parameters, normalised by the maximum over the "
        "paper; the dense score is the cosine similarity of sentence embeddings of the question "
        "and the passage:", "first"),
    ("eq", "s(q, p) = a · bm25(q, p) + (1 - a) · cos(e<sub>q</sub>, e<sub>p</sub>)", "1"),
    (P, "where the mixing weight a is set to 0.4 on the development questions. We also tried "
        "learning a per-question weight from the question length and its share of rare terms, "
        "but the gain was within the noise of the development set, so we keep a single weight "
        "for simplicity."),
    ("h2", "3.2 Budgeted Selection"),
    (P, "Let T(q) be the set of content terms of the question and T(p) those of a passage. We "
        "select the set of passages that maximises a coverage objective under the budget:",
     "first"),
    ("eq", "F(S) = sum<sub>p in S</sub> s(q, p) + b · |T(q) ∩ T(S)| - c · sum<sub>p, p' in S</sub> "
           "sim(p, p')", "2"),
    (P, "subject to the constraint that the lengths of the passages in S sum to at most B. The "
        "second term rewards covering question terms that no selected passage covers yet, and "
        "the third penalises pairs of similar passages. We solve the problem greedily: at each "
        "step we add the passage with the largest gain in F per token that still fits, and we "
        "stop when no passage fits or no gain is positive. With b and c fixed, the objective is "
        "submodular, which bounds the loss of the greedy solution."),
    (P, "The selected passages are returned in document order rather than score order. This "
        "keeps a table next to its caption and an equation next to the paragraph that explains "
        "it, and it lets the reading model follow the argument of the paper."),
    ("h1", "4 Experiments"),
    ("h2", "4.1 Setup"),
    (P, "We collected 1,204 questions about 312 machine learning papers published between 2018 "
        "and 2024. Annotators with a background in the field read the abstract of a paper, wrote "
        "questions they would ask its authors, and then marked the paragraphs, captions and "
        "equations that contain the evidence for each answer. Two annotators labelled every "
        "question; their agreement on evidence paragraphs was 0.78 F1, and a third annotator "
        "resolved disagreements. We use 200 questions for development and the rest for testing.",
     "first"),
    (P, "We compare four retrieval methods under budgets of 512, 1,024 and 2,048 tokens: BM25 "
        "alone, dense retrieval alone, the hybrid score of Equation 1 with the top passages "
        "kept until the budget is full (Hybrid top-k), and BBS. The reading model is the same "
        "for all methods and receives the selected passages with their page and line numbers. "
        "We report evidence recall, the share of gold evidence passages that are selected, and "
        "the unsupported citation rate, the share of cited passages in an answer that a second "
        "annotator judged not to support the cited statement."),
    ("h2", "4.2 Results"),
    ("table", "Table 1: Evidence recall (%) at three token budgets on the 1,004 test questions. "
              "The best result in each column is that of BBS.",
     [["Method", "512", "1,024", "2,048"],
      ["BM25", "41.7", "53.0", "64.2"],
      ["Dense", "44.9", "56.8", "67.5"],
      ["Hybrid top-k", "49.3", "62.2", "73.1"],
      ["BBS (ours)", "57.5", "71.4", "80.6"]]),
    (P, "Table 1 shows evidence recall. BBS improves over Hybrid top-k at every budget, and the "
        "gain is largest at the smallest budgets, where spending tokens on redundant passages "
        "hurts most. At 1,024 tokens BBS recovers 71.4% of the gold evidence against 62.2% for "
        "Hybrid top-k. Dense retrieval alone is better than BM25 alone, but the hybrid is better "
        "than both, which agrees with earlier reports on other collections [2, 3]."),
    ("figure", "Figure 1: Unsupported citation rate (%) of generated answers at a budget of "
               "1,024 tokens; lower is better.",
     [("BM25", 0.24), ("Dense", 0.21), ("Hybrid", 0.18), ("BBS", 0.12)]),
    (P, "Figure 1 shows the unsupported citation rate. Answers generated from BBS evidence cite "
        "unsupported passages in 11.7% of cases, against 18.3% for Hybrid top-k. Inspection of "
        "fifty answers suggests that the gain comes from covering all parts of multi-part "
        "questions: when the evidence for one part is missing, the reading model tends to cite "
        "a nearby passage that does not support the claim."),
    (P, "The redundancy penalty matters. Without it (c = 0), evidence recall at 1,024 tokens "
        "falls from 71.4% to 66.0%, and the selected sets contain on average 1.8 passages that "
        "restate the abstract. The coverage term matters less: setting b = 0 costs 2.1 points. "
        "Selection adds 3.6 ms per question on a laptop processor, which is negligible next to "
        "the cost of the reading model."),
    ("h2", "4.3 Analysis"),
    (P, "We examined where the methods lose evidence. For single-fact questions, all hybrid "
        "methods find the evidence paragraph in more than 90% of cases, and BBS gains little. "
        "The difference lies in questions whose answer combines facts from several places: a "
        "result in a table and the setting described in the text, or a claim in the "
        "introduction and its qualification in the discussion. For these 388 questions, "
        "evidence recall at 1,024 tokens is 52.7% for Hybrid top-k and 66.9% for BBS. Top-k "
        "selection fills the budget with the three or four passages closest to the wording of "
        "the question, which typically restate one fact; the coverage term pushes BBS towards "
        "passages that mention the question terms not yet covered.", "first"),
    (P, "Captions are the passage type that benefits most. They are short, so a selection that "
        "accounts for length can afford them, and they often name the quantity a question asks "
        "about. BBS selects at least one caption for 61% of questions about results, against "
        "34% for Hybrid top-k. Equations, in contrast, are rarely selected by any method: their "
        "text form shares few terms with the question, and the dense encoder represents them "
        "poorly. A reader that needs an equation usually finds it through the paragraph that "
        "introduces it, which is one argument for returning passages in document order."),
    (P, "Finally, we measured the sensitivity of BBS to its two parameters on the development "
        "questions. Evidence recall varies by less than one point for b between 0.1 and 0.5 and "
        "for c between 0.2 and 0.6, so the defaults transfer across budgets. Larger values of c "
        "start to exclude genuinely complementary passages that share vocabulary, such as two "
        "paragraphs that describe the training and the evaluation data of the same benchmark."),
    ("h1", "5 Limitations"),
    (P, "Our questions come from one field, and the annotators were familiar with it; papers "
        "from other fields may distribute their evidence differently, for example with longer "
        "methods sections or supplementary material that the parser does not see. The budget "
        "is measured with the tokenizer of one reading model, and other tokenizers count "
        "mathematical notation and tables quite differently. We also rely on the document "
        "parser for passage boundaries: when a paragraph is split across columns or pages, the "
        "parser must join it, or the selection step will see two weaker passages instead of "
        "one strong one.", "first"),
    ("h1", "6 Conclusion"),
    (P, "We studied evidence retrieval for question answering over long scientific papers under "
        "an explicit token budget. Selecting passages with a coverage objective and a redundancy "
        "penalty, instead of keeping the top-ranked ones, recovers more of the gold evidence and "
        "leads to answers with fewer unsupported citations. The method needs no training beyond "
        "its two relevance models. Its main limitation is that it treats passages independently "
        "of the figures and tables they describe; linking captions to the paragraphs that refer "
        "to them is a natural next step.", "first"),
]

REFERENCES = [
    "Nelson F. Liu, Kevin Lin, John Hewitt, Ashwin Paranjape, Michele Bevilacqua, Fabio "
    "Petroni, and Percy Liang. Lost in the middle: How language models use long contexts. "
    "Transactions of the Association for Computational Linguistics, 12:157-173, 2024. "
    "doi:10.1162/tacl_a_00638.",
    "Vladimir Karpukhin, Barlas Oguz, Sewon Min, Patrick Lewis, Ledell Wu, Sergey Edunov, Danqi "
    "Chen, and Wen-tau Yih. Dense passage retrieval for open-domain question answering. In "
    "Proceedings of EMNLP, pages 6769-6781, 2020. arXiv:2004.04906.",
    "Gordon V. Cormack, Charles L. A. Clarke, and Stefan Buettcher. Reciprocal rank fusion "
    "outperforms Condorcet and individual rank learning methods. In Proceedings of SIGIR, "
    "pages 758-759, 2009. doi:10.1145/1571941.1572114.",
    "Pradeep Dasigi, Kyle Lo, Iz Beltagy, Arman Cohan, Noah A. Smith, and Matt Gardner. A "
    "dataset of information-seeking questions and answers anchored in research papers. In "
    "Proceedings of NAACL, pages 4599-4610, 2021. arXiv:2105.03011.",
    "Stephen Robertson and Hugo Zaragoza. The probabilistic relevance framework: BM25 and "
    "beyond. Foundations and Trends in Information Retrieval, 3(4):333-389, 2009.",
    "Jaime Carbonell and Jade Goldstein. The use of MMR, diversity-based reranking for "
    "reordering documents and producing summaries. In Proceedings of SIGIR, pages 335-336, "
    "1998. doi:10.1145/290941.291025.",
]
