"""Scholarly sources outside the library: OpenAlex, Crossref, arXiv, Semantic Scholar.

One adapter per source behind one contract (``source.ScholarSource``), each holding only what
is its own (``adapter`` has the shared lookup, search and counts); every request goes
through ``http.SourceHttp`` (a rate limiter per source, retries with backoff, a response cache
in the library database, one log event per lookup). ``verify`` checks a bibliography entry
against them deterministically. Nothing here reads settings: services build it.
"""
