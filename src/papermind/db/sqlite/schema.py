"""SQLite's tables of the components written in portable SQL, by component (``db.migrations``).

Their owners: papers (``library.papers``), catalog, labels, imports (``library.import_log``),
eval_runs, llm_cache (``llm.cache``), llm_calls (``llm.usage_store``), scholar_cache.
"""

MIGRATIONS: dict[str, list[str]] = {
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
        size_bytes  INTEGER NOT NULL DEFAULT 0,
        added_at    TEXT NOT NULL,
        data        TEXT NOT NULL
    );
    CREATE INDEX papers_added_at ON papers(added_at);
    CREATE INDEX papers_title ON papers(title);
    CREATE INDEX papers_year ON papers(year);
    """,
    ],
    "catalog": ["""
    CREATE TABLE paper_works (
        paper_id   TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
        work_id    TEXT NOT NULL,
        doi        TEXT,
        arxiv      TEXT,
        title_key  TEXT,
        source     TEXT,
        source_key TEXT,
        metadata   TEXT NOT NULL
    );
    CREATE INDEX paper_works_work ON paper_works(work_id);
    CREATE INDEX paper_works_doi ON paper_works(doi);
    CREATE INDEX paper_works_arxiv ON paper_works(arxiv);
    CREATE INDEX paper_works_title_key ON paper_works(title_key);
    """,
    ],
    "labels": ["""
    CREATE TABLE paper_labels (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('tag', 'collection')),
        name     TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (paper_id, kind, name)
    );
    CREATE INDEX paper_labels_name ON paper_labels(kind, name);
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
    "eval_runs": ["""
    CREATE TABLE eval_runs (
        id         TEXT PRIMARY KEY,
        kind       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status     TEXT NOT NULL,
        settings   TEXT NOT NULL,
        summary    TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE eval_items (
        run_id     TEXT NOT NULL REFERENCES eval_runs(id) ON DELETE CASCADE,
        item_id    TEXT NOT NULL,
        seq        INTEGER NOT NULL,
        result     TEXT NOT NULL,
        tokens     INTEGER NOT NULL DEFAULT 0,
        cost_usd   REAL NOT NULL DEFAULT 0,
        seconds    REAL NOT NULL DEFAULT 0,
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
        created_at REAL NOT NULL
    );
    """,
    ],
    "llm_calls": ["""
    CREATE TABLE llm_calls (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id TEXT NOT NULL,
        at REAL NOT NULL,
        role TEXT NOT NULL,
        node TEXT,
        endpoint TEXT NOT NULL,
        model TEXT NOT NULL,
        tokens_in INTEGER NOT NULL,
        tokens_out INTEGER NOT NULL,
        cost_usd REAL NOT NULL,
        cached INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        latency_s REAL NOT NULL,
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
        created_at REAL NOT NULL
    );
    """,
    ],
}
