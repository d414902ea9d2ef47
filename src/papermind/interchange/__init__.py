"""Reference-manager formats: read Zotero libraries and BibTeX; write BibTeX, CSL-JSON, RIS.

Pure conversions between those formats and ``domain.works``; storing is the library's job.
"""
