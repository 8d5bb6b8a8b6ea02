"""``segment_corpus``: segment every document of a folder, JSONL or Parquet file into a Parquet dataset, on Dask.

The documents are grouped into tasks (:mod:`bpseg_pgm.corpus.tasks`) that run on a ``dask.distributed`` cluster
(a ``LocalCluster`` of ``workers`` processes started for the run, or the one at ``scheduler``; ``workers=0``: in
this process). Each finished task is written as one part of the output folder (:mod:`bpseg_pgm.corpus.store`) at
once, so an interrupted run keeps what it finished and a rerun goes on where it stopped.
"""

from __future__ import annotations

import logging
import numbers
import os
import sys
import time
from dataclasses import dataclass
from typing import Any

from bpseg_pgm.corpus.extra import check_corpus
from bpseg_pgm.corpus.store import CorpusStore
from bpseg_pgm.corpus.tasks import DEFAULT_TASK_CHARS, TaskConfig, cores, group_documents, local_threads, segment_task
from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES
from bpseg_pgm.io.documents import check_source, read_documents
from bpseg_pgm.utils.jsonable import jsonable
from bpseg_pgm.utils.words import plural

__all__ = ["segment_corpus", "CorpusReport", "default_workers", "max_workers"]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CorpusReport:
    """What a run did: documents in the input, already in the output (skipped), segmented, failed."""

    out: str
    n_documents: int
    n_skipped: int
    n_segmented: int
    n_failed: int
    n_sentences: int
    seconds: float
    workers: int | None = None  #: local worker processes started (None: none, or an existing cluster)
    workers_asked: int | None = None  #: the ``workers`` asked for, when more than :func:`max_workers` allowed

    def summary(self) -> str:
        skipped = ""
        if self.n_skipped:  # a rerun skips by id alone: say so, since a document whose text changed is skipped too
            skipped = (
                f", {self.n_skipped} already in the output (skipped by id; a changed text is not segmented "
                "again: write to a new OUT for that)"
            )
        capped = ""
        if self.workers_asked is not None and self.workers is not None:
            capped = f"; {self.workers} worker(s), not {self.workers_asked} (at most one per task and two per core)"
        return (
            f"{self.n_segmented} document(s) segmented ({self.n_sentences} sentences), {self.n_failed} failed"
            f"{skipped}; {self.n_documents} in the input{capped}; {self.seconds:.1f} s -> {self.out}"
        )


def default_workers() -> int:
    """Local workers when none are asked for: one per core (each with one model thread), at most 8 (memory: one
    model per worker)."""
    return max(1, min(8, cores()))


def max_workers(n_tasks: int) -> int:
    """The most local workers a run starts: one per task (a worker without a task only loads a model) and two per core
    (each worker holds a model; more only share the cores). ``workers`` above it is capped, and the report says so."""
    return max(1, min(n_tasks, 2 * cores()))


def settings_params(params: dict) -> dict:
    """BP-Seg parameters as ``OUT/_bpseg_corpus.json`` records them: a value equal to the default it replaces (the
    constructor's, or the named potentials' own ``lam``, ``sigma`` and ``em_rounds``) is left out, so ``--lam 150``
    or ``--engine potts`` resumes a run made without them."""
    import inspect

    from bpseg_pgm.estimator import BPSeg

    signature = inspect.signature(BPSeg.__init__).parameters
    out = {k: jsonable(v) for k, v in sorted(params.items())}
    defaults = {k: jsonable(p.default) for k, p in signature.items() if p.default is not inspect.Parameter.empty}
    model = {}
    try:
        from bpseg_pgm.inference.engines import make_engine
        from bpseg_pgm.potentials.registry import lookup

        engine, potentials = params.get("engine", defaults["engine"]), params.get("potentials", defaults["potentials"])
        if isinstance(potentials, str) and make_engine(engine, params.get("damping", 0.0)).uses_potentials:
            model = {
                k: jsonable(v) for k, v in lookup(potentials).defaults.items() if k in ("lam", "sigma", "em_rounds")
            }
    except (ValueError, TypeError, KeyError):
        model = {}
    for key in list(out):
        if key in defaults and out[key] == defaults[key] and key != "n_segments":
            del out[key]
        elif key in model and defaults.get(key) in (None, "auto") and out[key] == model[key]:
            del out[key]
    return out


def _check(n_segments, workers, scheduler, task_chars, params) -> None:
    from bpseg_pgm.text.checks import check_bpseg_params

    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, numbers.Integral) or workers < 0):
        raise ValueError(f"workers must be an integer >= 0, got {workers!r}")
    if scheduler is not None:
        if not isinstance(scheduler, str) or not scheduler.strip():
            raise ValueError(f"scheduler must be a Dask scheduler address such as 'tcp://host:8786', got {scheduler!r}")
        if workers is not None:
            raise ValueError("give either workers (a local cluster) or scheduler (an existing cluster), not both")
    if isinstance(task_chars, bool) or not isinstance(task_chars, numbers.Integral) or task_chars < 1:
        raise ValueError(f"task_chars must be a positive integer, got {task_chars!r}")
    # bad options (n_segments among them) fail now, not once per document: BPSeg's one check, against no length yet
    # (each document's task checks its k and init indices against it)
    check_bpseg_params(n_segments, params)


class _Progress:
    """A bar counting documents, with the sentences done and the failures as a postfix."""

    def __init__(self, total: int, initial: int, show: bool | None):
        from tqdm.auto import tqdm

        if show is None:
            show = sys.stderr is not None and sys.stderr.isatty()
        self.sentences = self.failed = self.segmented = 0
        self.bar = tqdm(
            total=total,
            initial=initial,
            unit="doc",
            desc="Segmenting",
            disable=not show,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def update(self, table) -> None:
        import pyarrow.compute as pc

        errors = table.column("error")
        failed_docs = set(pc.filter(table.column("doc"), pc.is_valid(errors)).to_pylist())
        docs = len(set(table.column("doc").to_pylist()))
        self.failed += len(failed_docs)
        self.segmented += docs - len(failed_docs)
        self.sentences += errors.null_count  # sentence rows have no error
        self.bar.set_postfix(sentences=self.sentences, failed=self.failed, refresh=False)
        self.bar.update(docs)

    def close(self) -> None:
        self.bar.close()


def _cluster(workers: int | None, scheduler: str | None):
    """A Dask client: on the scheduler given, or on a new LocalCluster; and the cluster to close (or None)."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            return Client(scheduler, timeout="10s"), None
        except (OSError, TimeoutError, ValueError) as exc:
            raise ValueError(
                f"cannot connect to the Dask scheduler at {scheduler}: {' '.join(str(exc).split())}"
            ) from None
    # The workers ignore SIGINT: a Ctrl-C at a terminal goes to the whole process group, and this process alone
    # answers it (it closes the cluster, which ends the workers); a worker answering it too prints a traceback.
    # SIG_IGN is the one disposition a new process inherits through exec, so it is set while they start.
    # Their logs are silenced (CRITICAL): a task's failure comes back here with its future, in one line.
    restore = _ignore_sigint()
    try:
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        )
    finally:
        restore()
    try:
        return Client(cluster), cluster
    except BaseException:
        cluster.close()
        raise


def _ignore_sigint():
    """Ignore SIGINT until the returned function is called (only in the main thread; a no-op elsewhere)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    return lambda: signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


def _run_dask(groups, config, store, progress, workers, scheduler) -> None:
    from distributed import as_completed

    client, cluster = _cluster(workers, scheduler)
    futures = []
    try:
        futures = [
            client.submit(segment_task, g, config, pure=False, key=f"bpseg-corpus-{store._run}-{i}")
            for i, g in enumerate(groups)
        ]
        for future in as_completed(futures):
            try:
                table = future.result()
            except ValueError:
                raise
            except Exception as exc:  # noqa: BLE001 - a worker died (KilledWorker), a cancelled future, ...
                raise ValueError(f"a Dask task failed: {type(exc).__name__}: {' '.join(str(exc).split())}") from None
            store.write_part(table)
            progress.update(table)
            future.release()
    finally:
        for f in futures:
            f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()


def segment_corpus(
    source: str | os.PathLike,
    out: str | os.PathLike,
    n_segments: int | str = "auto",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    model: str | os.PathLike | None = None,
    backend: str | None = None,
    lines: bool = False,
    cache_dir: str | os.PathLike | None = None,
    task_chars: int = DEFAULT_TASK_CHARS,
    max_bytes: int = DEFAULT_MAX_BYTES,
    show_progress: bool | None = None,
    **bpseg_params: Any,
) -> CorpusReport:
    """Segment every document of ``source`` into the Parquet dataset ``out``; returns a :class:`CorpusReport`.

    ``source``: a folder, a JSONL or a Parquet file (:func:`~bpseg_pgm.corpus.read_documents`). ``out``: a folder
    of Parquet parts, one row per sentence (:mod:`bpseg_pgm.corpus.rows`); documents already in it are skipped, so
    a rerun resumes. ``n_segments``, ``lines``, ``model`` and ``bpseg_params`` are those of
    :func:`~bpseg_pgm.text.segment_text`, and each document gets the labels ``segment_text`` would give it,
    whatever the number of workers. ``workers``: processes of the local Dask cluster (default
    :func:`default_workers`, at most :func:`max_workers`; 0 runs in this process); ``scheduler``: the address of
    a running Dask scheduler to use instead. ``task_chars``: characters of documents per task.

    Bad options, an unreadable input or an output that cannot be written are a ``ValueError`` before any work, a
    missing corpus extra an ImportError naming it; a document that cannot be segmented is an error row.
    """
    from bpseg_pgm.embeddings import Embedder

    check_corpus(dask=scheduler is not None or workers != 0)  # a missing extra: one ImportError, before any work
    check_source(source)  # nothing read yet: whether it exists
    started = time.perf_counter()
    if isinstance(out, (str, os.PathLike)) and isinstance(source, (str, os.PathLike)) and os.fspath(out):
        from bpseg_pgm.io.output import check_not_input

        check_not_input(out, [source])  # the input folder or file itself (through any link): never written into
    embedder = Embedder(model, cache_dir=cache_dir, show_progress=False, backend=backend)  # checks model and backend
    _check(n_segments, workers, scheduler, task_chars, bpseg_params)
    settings = {
        "model": embedder.model_id,
        "backend": embedder.backend,
        "n_segments": jsonable(n_segments),
        "lines": bool(lines),
        "params": settings_params(bpseg_params),
    }
    # writable and locked (no other run on it) before any work
    store = CorpusStore.open(out, settings, normalize_params=settings_params)
    ok = False
    progress = None
    try:
        docs = read_documents(source, max_bytes=max_bytes)
        done = store.done()
        todo = [d for d in docs if d.id not in done]
        skipped = len(docs) - len(todo)
        groups = group_documents(todo, task_chars)
        if workers is None and scheduler is None:
            workers = default_workers()
        asked = None
        if scheduler is None and workers and groups and workers > max_workers(len(groups)):
            asked, workers = workers, max_workers(len(groups))
        config = TaskConfig(
            n_segments=n_segments,
            lines=bool(lines),
            model=None if model is None else os.fspath(model),
            backend=backend,
            cache_dir=None if cache_dir is None else os.fspath(cache_dir),
            threads=local_threads(workers) if scheduler is None and workers else None,
            params=dict(bpseg_params),
        )
        if groups:  # the phase line (bpseg_pgm.cli.progress)
            if scheduler is not None:
                where = f"on the Dask cluster at {scheduler}"
            else:
                where = f"on {plural(workers, 'local Dask worker')}" if workers else "in this process"
            done_before = f" ({skipped} already in the output)" if skipped else ""
            _log.info("segmenting %s%s %s", plural(len(todo), "document"), done_before, where)
        progress = _Progress(len(docs), skipped, show_progress)
        if groups and scheduler is None and workers == 0:
            for group in groups:
                table = segment_task(group, config)
                store.write_part(table)
                progress.update(table)
        elif groups:
            _run_dask(groups, config, store, progress, workers, scheduler)
        ok = True
    finally:
        if progress is not None:
            progress.close()
        if not ok:
            store.discard_if_unused()
        store.close()
    return CorpusReport(
        out=store.name,
        n_documents=len(docs),
        n_skipped=skipped,
        n_segmented=progress.segmented,
        n_failed=progress.failed,
        n_sentences=progress.sentences,
        seconds=time.perf_counter() - started,
        workers=workers if scheduler is None and workers and groups else None,
        workers_asked=asked,
    )
