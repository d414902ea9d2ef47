"""Server-rendered web UI: library, paper, job and report pages; citations open the page."""
