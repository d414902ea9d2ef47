"""The OCR engine: RapidOCR (the optional extra 'ocr') on its packaged PP-OCR ONNX models.

The wheel ships Chinese+English detection and recognition models and a 0/180-degree text
direction classifier. Their paths are passed explicitly, so the engine never downloads
anything. One engine per process, loaded on first use; onnxruntime threads are capped
(``threads``) because ingestion shares the machine with the server and the embedder.

Memory: a page is read within the parsing worker's address-space limit
(``ingest.worker_memory_mb``). Recognition runs one line at a time (RapidOCR batches six
by default, padded to the widest: on a 200-dpi page that peaked 608 MB above the engine,
one at a time 185 MB, and was faster); under an address-space limit glibc gets two malloc
arenas, not eight per core (each reserves 64 MB of address space), and the memory a page
used is given back before the next (``release_memory``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import resource
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from papermind.errors import IngestError

EXTRA_HINT = "install the 'ocr' extra (pip install 'papermind[ocr]') to read scanned pages"
_MODELS = {"Det": "PP-OCRv6_det_small.onnx", "Rec": "PP-OCRv6_rec_small.onnx",
           "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx"}
_DET_SIDE = 960  # detection runs on at most this many pixels a side (recognition on crops):
# at 1280 it took 370 MB more memory and 2x the time, finding the same lines on a dense page
_REC_BATCH = 1  # lines recognised at once (see the module docstring)
_ARENAS = 2  # glibc malloc arenas under an address-space limit
_M_ARENA_MAX = -8  # mallopt's parameter number (glibc malloc.h)
_LOCK = threading.Lock()
_RUN_LOCK = threading.Lock()
_ENGINES: dict[int, Any] = {}


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised text line: its text, confidence and box in image pixels."""

    text: str
    score: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1


def available() -> bool:
    """Whether the OCR extra is installed (importable, models in place)."""
    try:
        return all(path.is_file() for path in _model_paths().values())
    except ImportError:
        return False


def _model_paths() -> dict[str, Path]:
    import rapidocr

    root = Path(rapidocr.__file__).parent / "models"
    return {stage: root / name for stage, name in _MODELS.items()}


def _engine(threads: int) -> Any:
    with _LOCK:
        if threads not in _ENGINES:
            try:
                from rapidocr import RapidOCR
                paths = _model_paths()
            except ImportError:
                raise IngestError("OCR is not installed", hint=EXTRA_HINT) from None
            _fewer_arenas()
            params: dict[str, Any] = {f"{stage}.model_path": str(path)
                                      for stage, path in paths.items()}
            params.update({
                "Global.log_level": "error", "Global.use_cls": False,
                "Det.limit_type": "max", "Det.limit_side_len": _DET_SIDE,
                "Rec.rec_batch_num": _REC_BATCH,
                "EngineConfig.onnxruntime.intra_op_num_threads": threads,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
            })
            engine = RapidOCR(params=params)
            _without_spinning(engine, paths, threads)
            _ENGINES[threads] = engine
        return _ENGINES[threads]


def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


def _fewer_arenas() -> None:
    """Under an address-space limit, two malloc arenas for the engine's threads (glibc)."""
    if resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY:
        return
    libc = _libc()
    if libc is not None and hasattr(libc, "mallopt"):
        libc.mallopt(_M_ARENA_MAX, _ARENAS)


def release_memory() -> None:
    """Give the memory of the page just read back (collected, then trimmed on glibc), so
    the next page starts from the engine's own footprint."""
    gc.collect()
    libc = _libc()
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim(0)


def out_of_memory(error: BaseException) -> bool:
    """Whether ``error`` is the engine (or numpy) running out of memory: onnxruntime says
    'bad_alloc', 'Failed to allocate' or, when a thread cannot be started under the address
    space limit, 'Cannot allocate memory' (ENOMEM) in a RuntimeException of its own."""
    if isinstance(error, MemoryError):
        return True
    text = str(error)
    return any(sign in text for sign in ("bad_alloc", "Failed to allocate",
                                         "Cannot allocate memory"))


def _without_spinning(engine: Any, paths: dict[str, Path], threads: int) -> None:
    """Give detection and recognition onnxruntime sessions whose idle threads sleep instead
    of spinning: on 2 shared cores that costs the same page 9.5 instead of 14.9 CPU seconds
    (and 10.8 on one thread). RapidOCR takes no session options, so its sessions are swapped."""
    import onnxruntime as ort

    for stage, load in (("Det", engine._load_det_model), ("Rec", engine._load_rec_model)):
        holder = getattr(load(), "session", None)
        if holder is None or not hasattr(holder, "session"):
            continue  # another RapidOCR layout: keep its own session
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 4
        options.enable_cpu_mem_arena = False  # as RapidOCR sets it
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        holder.session = ort.InferenceSession(str(paths[stage]), sess_options=options,
                                              providers=["CPUExecutionProvider"])


def read_lines(image: np.ndarray, *, threads: int = 2) -> list[OcrLine]:
    """Text lines of an upright RGB image (H x W x 3, uint8)."""
    result = _run(image, threads, det=True, cls=False, rec=True)
    if getattr(result, "txts", None) is None:
        return []
    return [OcrLine(text=str(text), score=float(score), box=_bounds(quad))
            for quad, text, score in zip(result.boxes, result.txts, result.scores, strict=True)
            if str(text).strip()]


def line_boxes(image: np.ndarray, *, threads: int = 2) -> list[tuple[float, float, float, float]]:
    """Boxes of the text lines detected in ``image`` (no recognition)."""
    result = _run(image, threads, det=True, cls=False, rec=False)
    boxes = getattr(result, "boxes", None)
    return [] if boxes is None else [_bounds(quad) for quad in boxes]


def upside_down(crop: np.ndarray, *, threads: int = 2) -> bool:
    """Whether the text line in ``crop`` (a horizontal strip) reads upside down."""
    result = _run(crop, threads, det=False, cls=True, rec=False)
    labels = getattr(result, "cls_res", None) or []
    return bool(labels) and str(labels[0][0]) == "180"


def line_score(crop: np.ndarray, *, threads: int = 2) -> float:
    """Recognition confidence of the text line in ``crop`` read as it is (0 when unread)."""
    result = _run(crop, threads, det=False, cls=False, rec=True)
    scores = getattr(result, "scores", None)
    return float(scores[0]) if scores else 0.0


def _run(image: np.ndarray, threads: int, *, det: bool, cls: bool, rec: bool) -> Any:
    engine = _engine(threads)
    with _RUN_LOCK:  # the engine keeps the stage switches as state between calls
        return engine(image, use_det=det, use_cls=cls, use_rec=rec)


def _bounds(quad: Any) -> tuple[float, float, float, float]:
    points = np.asarray(quad, dtype=float).reshape(-1, 2)
    return (float(points[:, 0].min()), float(points[:, 1].min()),
            float(points[:, 0].max()), float(points[:, 1].max()))
