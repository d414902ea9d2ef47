"""PostgreSQL's tables of the components written in portable SQL, by component: the same
tables as ``db.sqlite.schema``, step for step, in PostgreSQL's types (``DOUBLE PRECISION``,
``BIGINT``, identity columns); an explicit ``rowid`` where the code orders by SQLite's implicit
one, and ``lower(name)`` indexes where SQLite compares ``COLLATE NOCASE``.
"""

MIGRATIONS: dict[str, list[str]] = {
    # rowid (implicit in SQLite) keeps insertion order
    "papers": ["""
    CREATE TABLE papers (
        id          TEXT PRIMARY KEY,
        title       TEXT NOT NULL DEFAULT '',
        authors     TEXT NOT NULL DEFAULT '[]',
        year        INTEGER,
        source_name TEXT NOT NULL DEFAULT '',
        source_type TEXT NOT NULL,
        pages       INTEGER NOT NULL DEFAULT 0,
        file_name   TEXT NOT NULL,
        size_bytes  BIGINT NOT NULL DEFAULT 0,
        added_at    TEXT NOT NULL,
        data        TEXT NOT NULL,
        rowid       BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
    );
    CREATE INDEX papers_added_at ON papers(added_at);
    CREATE INDEX papers_title ON papers(title);
    CREATE INDEX papers_year ON papers(year);
    """,
    ],
    # rowid (implicit in SQLite) keeps insertion order
    "catalog": ["""
    CREATE TABLE paper_works (
        paper_id   TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
        work_id    TEXT NOT NULL,
        doi        TEXT,
        arxiv      TEXT,
        title_key  TEXT,
        source     TEXT,
        source_key TEXT,
        metadata   TEXT NOT NULL,
        rowid      BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
    );
    CREATE INDEX paper_works_work ON paper_works(work_id);
    CREATE INDEX paper_works_doi ON paper_works(doi);
    CREATE INDEX paper_works_arxiv ON paper_works(arxiv);
    CREATE INDEX paper_works_title_key ON paper_works(title_key);
    """,
    ],
    # no NOCASE collation (and pgserver has no ICU): names compare by lower(), which is what SQLite's NOCASE does (ASCII case folding)
    "labels": ["""
    CREATE TABLE paper_labels (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('tag', 'collection')),
        name     TEXT NOT NULL
    );
    CREATE UNIQUE INDEX paper_labels_key ON paper_labels(paper_id, kind, lower(name));
    CREATE INDEX paper_labels_name ON paper_labels(kind, lower(name));
    """,
    ],
    "imports": ["""
    CREATE TABLE import_items (
        source   TEXT NOT NULL,
        origin   TEXT NOT NULL,
        item_key TEXT NOT NULL,
        paper_id TEXT NOT NULL,
        done_at  TEXT NOT NULL,
        PRIMARY KEY (source, origin, item_key)
    );
    """,
    ],
    # rowid (implicit in SQLite) keeps creation order
    "eval_runs": ["""
    CREATE TABLE eval_runs (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status     TEXT NOT NULL,
        settings   TEXT NOT NULL,
        summary    TEXT NOT NULL DEFAULT '{}',
        rowid      BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
    );
    CREATE TABLE eval_items (
        run_id     TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        item_id    TEXT NOT NULL,
        seq        INTEGER NOT NULL,
        result     TEXT NOT NULL,
        tokens     INTEGER NOT NULL DEFAULT 0,
        cost_usd   DOUBLE PRECISION NOT NULL DEFAULT 0,
        seconds    DOUBLE PRECISION NOT NULL DEFAULT 0,
        done_at    TEXT NOT NULL,
        PRIMARY KEY (run_id, item_id)
    );
    """,
    ],
    "llm_cache": ["""
    CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        payload TEXT NOT NULL,
        tokens_in INTEGER NOT NULL,
        tokens_out INTEGER NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    """,
    ],
    "llm_calls": ["""
    CREATE TABLE llm_calls (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        job_id TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        role TEXT NOT NULL,
        node TEXT,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        tokens_in INTEGER NOT NULL,
        tokens_out INTEGER NOT NULL,
        cost_usd DOUBLE PRECISION NOT NULL,
        cached INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        latency_s DOUBLE PRECISION NOT NULL,
        ok INTEGER NOT NULL
    );
    CREATE INDEX llm_calls_by_job ON llm_calls(job_id, id);
    """,
    ],
    "scholar_cache": ["""
    CREATE TABLE scholar_cache (
        key TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        request TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    """,
    ],
}
