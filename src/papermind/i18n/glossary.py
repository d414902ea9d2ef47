"""Bilingual research terms: English search words for a Chinese question over English papers.

Used where no model translates the question (offline search, the extractive fallback): the
terms a question contains, longest first, give English keywords. Dense search (e5) is
multilingual already; this is the lexical half. With a model configured, the prompts' language
rule asks for search queries in the papers' language instead.
"""

from __future__ import annotations

_TERMS = """
数据集 dataset data|语料库 corpus|语料 corpus|样本 samples|推文 tweets|标注 annotation annotated
准确率 accuracy|精确率 precision|召回率 recall|精度 precision accuracy|误差 error|错误率 error rate
困惑度 perplexity|损失函数 loss function|损失 loss|指标 metric metrics|评估 evaluation evaluate
评价 evaluation|实验 experiment experiments|结果 results|性能 performance|提升 improvement improve
提高 improve improvement|基线 baseline baselines|对比 comparison compare|比较 compare comparison
消融 ablation|模型 model models|方法 method approach|算法 algorithm|框架 framework|架构 architecture
网络 network|神经网络 neural network|卷积 convolutional convolution|循环 recurrent|注意力 attention
自注意力 self-attention|变换器 transformer|编码器 encoder|解码器 decoder|嵌入 embedding embeddings
向量 vector vectors|特征 features feature|参数 parameters|超参数 hyperparameters|训练 training train
预训练 pretraining pretrained|微调 fine-tuning|推理 inference reasoning|优化器 optimizer
优化 optimization|学习率 learning rate|批量 batch|迭代 iterations epochs|收敛 convergence
梯度 gradient|正则化 regularization|过拟合 overfitting|泛化 generalization|分类 classification
分类器 classifier|回归 regression|聚类 clustering|检索 retrieval|排序 ranking|生成 generation
翻译 translation|问答 question answering|摘要 summary abstract|文本 text|句子 sentence sentences
词 words word|语言 language languages|语言模型 language model|图像 image images|视频 video
语音 speech|图 graph figure|表 table|公式 equation|定理 theorem|证明 proof|假设 assumption
贡献 contribution contributions|局限 limitation limitations|局限性 limitations|未来工作 future work
相关工作 related work|引言 introduction|结论 conclusion|讨论 discussion|作者 authors|论文 paper
规模 size|大小 size|数量 number|多少 number|时间 time|速度 speed|效率 efficiency|成本 cost
鲁棒性 robustness|可解释性 interpretability|偏差 bias|公平 fairness|安全 safety|隐私 privacy
攻击 attack|防御 defense|强化学习 reinforcement learning|奖励 reward|策略 policy|智能体 agent
深度学习 deep learning|机器学习 machine learning|监督 supervised|无监督 unsupervised
半监督 semi-supervised|知识图谱 knowledge graph|推荐 recommendation|用户 users user
人脸识别 face recognition|识别 recognition|检测 detection|分割 segmentation|跟踪 tracking
"""
GLOSSARY: dict[str, tuple[str, ...]] = {
    zh: tuple(en.split()) for zh, _, en in (item.strip().partition(" ")
                                            for item in _TERMS.replace("\n", "|").split("|"))
    if zh}
_BY_LENGTH = sorted(GLOSSARY, key=len, reverse=True)


def english_terms(text: str) -> list[str]:
    """English words for the glossary terms in ``text`` (longest terms first, each once; a
    term inside a longer one already taken is skipped: '自注意力' gives 'self-attention')."""
    words: list[str] = []
    rest = text
    for term in _BY_LENGTH:
        if term in rest:
            rest = rest.replace(term, " ")
            words += [w for w in GLOSSARY[term] if w not in words]
    return words
