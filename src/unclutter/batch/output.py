"""Where a batch's records go: JSON Lines, Parquet, or a folder of one file per page.

Records are written in **shards** of ``shard_size`` consecutive inputs (shard ``k`` holds
the records of inputs ``k*shard_size`` to ``(k+1)*shard_size - 1``, in input order), each
written to a temporary file, flushed to disk and renamed into place, so a shard is
either complete or absent. The shards live in a work folder beside the output
(``OUT.parts/``, or ``OUT/.parts/`` for a folder output) together with a manifest naming the
command's inputs and options. When the input is exhausted the shards are joined into
``OUT`` (again through a temporary file and a rename) and the work folder is removed.

Resuming: a run that finds a work folder with the same manifest skips the inputs of the
complete shards and goes on from there; its output is the output an uninterrupted run
would have written (the ``seconds`` column, a wall-clock time, aside).
"""

from __future__ import annotations

import errno
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..core.errors import OutputError, UsageError
from .record import RECORD_FIELDS, RECORD_SCHEMA

#: Inputs per shard: the most work a crash can cost, and the memory a Parquet shard holds.
DEFAULT_SHARD_SIZE = 500
#: Records per Parquet row group of the joined file.
PARQUET_ROW_GROUP = 10_000
#: Longest component of an output name, in UTF-8 bytes (room left for a suffix and ".json").
MAX_NAME_BYTES = 160
#: Output formats by the output name: ``.jsonl`` and ``.parquet`` files, else a folder.
FORMATS = ("jsonl", "parquet", "folder")
#: Columns of a folder output's ``index.jsonl`` (each page's Markdown is its own file).
INDEX_FIELDS = tuple(f for f in RECORD_FIELDS if f not in ("markdown", "text")) + ("file",)

_SHARD_RE = re.compile(r"shard-(\d{6})\.(?:jsonl|parquet)")
#: Characters JSON leaves raw that line splitters other than "\n" take for line breaks
#: (Python's ``str.splitlines``, JavaScript): written escaped, so a record is one line for all.
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})


def json_line(obj: dict) -> str:
    """One JSON Lines record: UTF-8 text, every line separator inside strings escaped."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


#: Names that read as one file of another kind: a batch run refuses them as a folder's name
#: (``-o out.json`` would otherwise give a folder called ``out.json``), unless the folder exists.
_SINGLE_FILE_SUFFIXES = (".json", ".ndjson", ".md", ".markdown", ".txt", ".html", ".htm", ".csv", ".xml", ".gz")


def output_kind(out: str) -> str:
    """``"jsonl"``, ``"parquet"`` or ``"folder"`` for a batch run's output name.

    Raises:
        UsageError: a name ending like one file of another kind (``out.json``, ``out.md``)
            that is not an existing folder.
    """
    lower = out.lower()
    if lower.endswith(".jsonl"):
        return "jsonl"
    if lower.endswith(".parquet"):
        return "parquet"
    if lower.endswith(_SINGLE_FILE_SUFFIXES) and not os.path.isdir(out):
        raise UsageError(f"a batch run writes a .jsonl file, a .parquet file or a folder: {out} would be a folder; "
                         "name it .jsonl for JSON Lines, or give a folder name")
    return "folder"


def arrow_schema():
    """The Arrow schema of :data:`~unclutter.batch.record.RECORD_SCHEMA` (needs pyarrow)."""
    import pyarrow as pa

    types = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64()}
    return pa.schema([pa.field(name, types[kind], nullable=name not in ("id", "source", "status"))
                      for name, kind in RECORD_SCHEMA])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _mkstemp(path: Path) -> tuple[int, str]:
    """A temporary file beside ``path`` with the permissions a new file gets (mkstemp's 0600
    would otherwise stay after the rename)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".", suffix=".tmp")
    os.fchmod(fd, 0o666 & ~_UMASK)
    return fd, tmp


_UMASK = _umask()


def _fsync_write(path: Path, data: bytes) -> None:
    fd, tmp = _mkstemp(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def safe_relative_name(name: str, record_id: str) -> str:
    """A relative output path for a page, mirroring its input name: a file's path without
    its HTML suffix and with ``..``, absolute roots and odd characters neutralised; a URL's
    ``host/path`` plus a short hash of the record's id (ids are unique, URLs may repeat)."""
    digest = ""
    if "://" in name or name.startswith("urn:"):
        digest = "-" + hashlib.sha256(record_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        name = re.sub(r"^[a-z]+://", "", name.split("?")[0].split("#")[0])
    parts = []
    for part in re.split(r"[\\/]+", name):
        if part in ("", ".", ".."):
            continue
        part = re.sub(r"[^\w.\-]+", "_", part)
        if part.startswith("."):
            part = "_" + part  # no hidden names: the work folder is .parts
        while len(part.encode("utf-8")) > MAX_NAME_BYTES:  # file systems allow 255 bytes a name
            part = part[: max(1, len(part) * 3 // 4)]
        parts.append(part)
    if not parts:
        parts = ["page"]
    last = re.sub(r"(?i)\.(?:x?html?|htm)(?:\.gz)?$", "", parts[-1]) or "page"
    parts[-1] = last + digest
    return "/".join(parts)


class ShardedOutput:
    """The output of one batch run (see the module docstring).

    Args:
        out: the output path; its name picks the format (:func:`output_kind`).
        identity: what makes two runs "the same command" (inputs and options); a work
            folder left by a different command is refused rather than mixed in.
        page_format: ``"markdown"`` or ``"json"``, the files of a folder output.
        shard_size: inputs per shard.
        overwrite: replace an existing output instead of refusing.

    Raises:
        UsageError: ``out`` exists (complete, or a folder output naming a folder that holds
            other files) and ``overwrite`` is false; a work folder of a different command is
            there; pyarrow is missing for ``.parquet``.
        OutputError: the output folder cannot be created or written.
    """

    def __init__(self, out: str, identity: dict[str, Any], *, page_format: str = "markdown",
                 shard_size: int = DEFAULT_SHARD_SIZE, overwrite: bool = False) -> None:
        if shard_size < 1:
            raise UsageError("--shard-size must be at least 1")
        self.kind = output_kind(out)
        self.out = Path(out)
        self.page_format = page_format
        self.shard_size = shard_size
        if self.kind == "parquet":
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise UsageError("Parquet output needs pyarrow: pip install pyarrow (the 'batch' extra: "
                                 "pip install '.[batch]' in a source checkout)") from None
        self.parts = self.out / ".parts" if self.kind == "folder" else self.out.with_name(self.out.name + ".parts")
        manifest = {"identity": identity, "shard_size": shard_size, "kind": self.kind, "page_format": page_format}
        try:
            if overwrite:
                self._remove_all()
            if self.parts.is_dir() and self._complete() and self._read_manifest() is None and not self._count_done():
                # what a finished run left of its work folder when stopped while removing it
                # (its manifest went before its lock): the output stands, as complete
                shutil.rmtree(self.parts, ignore_errors=True)
            if self.parts.is_dir():
                old = self._read_manifest()
                # (a folder with no manifest and no shard is a run stopped before it wrote any)
                if old != manifest and (old is not None or self._count_done()):
                    raise UsageError(f"{self.parts} holds a partial run of a different command (other inputs, "
                                     "options or shard size); remove it, or pass --overwrite to start again")
            elif self._complete() and not overwrite:
                raise UsageError(f"{out} already exists; pass --overwrite to replace it")
            elif self.kind == "folder" and not overwrite and self.out.is_dir() and any(self.out.iterdir()):
                # a folder of the user's own files: pages written there would replace theirs
                raise UsageError(f"{out} is a folder that already holds files; name a new or empty folder, "
                                 "or pass --overwrite to write into it")
            self.parts.mkdir(parents=True, exist_ok=True)
            # one run at a time per output: a second one is refused instead of racing the first
            self._lock = open(self.parts / "lock", "a+b")  # noqa: SIM115 - held until finish()
            try:
                fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._lock.close()
                raise UsageError(f"another run is writing {out} now") from None
            self._remove_stale_joins()
            _fsync_write(self.parts / "manifest.json", json.dumps(manifest, sort_keys=True).encode())
        except OSError as exc:
            raise OutputError(f"cannot write the output {out}: {exc.strerror or exc}") from None
        self.done_shards = self._count_done()
        # output names already given (a folder output): two inputs with one name get the
        # second a suffix; read back from the shards written, so a resumed run names alike
        self.used_names: set[str] = set()
        self._done_counts: list[tuple[str, str | None]] = []
        for k in range(self.done_shards):
            try:
                rows = self._shard_rows(k)
            except (OSError, ValueError) as exc:  # a shard damaged after it was written
                self._drop_shards_from(k, exc)
                break
            for row in rows:
                self._done_counts.append((row.get("status"), row.get("error_kind")))
                if self.kind == "folder" and (name := row.get("file")) is not None:
                    self.used_names.add(name)

    def _shard_rows(self, k: int) -> list[dict]:
        path = self._shard_path(k)
        if self.kind == "parquet":
            import pyarrow.parquet as pq

            try:
                table = pq.read_table(path, columns=["status", "error_kind"])
            except Exception as exc:  # noqa: BLE001 - pyarrow's errors for an unreadable file vary
                raise ValueError(str(exc)) from None
            return [{"status": s, "error_kind": e} for s, e in
                    zip(table.column("status").to_pylist(), table.column("error_kind").to_pylist())]
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        if not all(isinstance(row, dict) for row in rows):
            raise ValueError("not a JSON object a line")
        return rows

    def _drop_shards_from(self, k: int, why: Exception) -> None:
        """Forget shard ``k`` and those after it (their inputs are run again): shard ``k``
        cannot be read back (``why``)."""
        self.done_shards = k
        try:
            for path in self.parts.iterdir():
                if (m := _SHARD_RE.fullmatch(path.name)) and int(m.group(1)) >= k:
                    path.unlink()
        except OSError as exc:
            raise OutputError(f"cannot write the output {self.out}: {exc.strerror or exc}") from None

    # -- state

    def _read_manifest(self) -> Any:
        try:
            return json.loads((self.parts / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def _complete(self) -> bool:
        if self.kind == "folder":
            return (self.out / "index.jsonl").exists()
        return self.out.exists()

    def _join_target(self) -> Path:
        if self.kind == "folder":
            return self.out / "index.jsonl"
        return self.out

    def _remove_stale_joins(self) -> None:
        """Remove the temporary files of a join that a kill interrupted (the lock is held:
        no other run of this output is joining now)."""
        target = self._join_target()
        if self.kind == "parquet":
            stale = [target.with_name("." + target.name + ".tmp")]
        else:
            folder = target.parent
            stale = list(folder.glob(glob.escape("." + target.name + ".") + "*.tmp")) if folder.is_dir() else []
        for path in stale:
            if path.is_file() and not path.is_symlink():
                path.unlink(missing_ok=True)

    def _remove_work_folder(self) -> None:
        # In an order that a kill at any point leaves a work folder a re-run finishes from:
        # the shards from the last (the complete ones stay a prefix), the manifest last.
        # The lock is held until its file goes last: a second run started meanwhile is refused
        # instead of resuming from a folder being emptied.
        shards = sorted((p for p in self.parts.iterdir() if _SHARD_RE.fullmatch(p.name)), reverse=True)
        others = [p for p in self.parts.iterdir()
                  if not _SHARD_RE.fullmatch(p.name) and p.name not in ("manifest.json", "lock")]
        for path in [*shards, *others, self.parts / "manifest.json", self.parts / "lock"]:
            self._remove(path)
        self._lock.close()
        try:
            self.parts.rmdir()
        except FileNotFoundError:
            pass  # (another run found it emptied and removed it: see __init__)

    @staticmethod
    def _remove(path: Path) -> None:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)

    def _remove_all(self) -> None:
        # Only the work folder goes now: an old output is replaced when the new one is
        # complete (by a rename), and nothing else in a folder output is ever deleted.
        if self.parts.is_dir():
            shutil.rmtree(self.parts)

    def _shard_path(self, k: int) -> Path:
        suffix = "parquet" if self.kind == "parquet" else "jsonl"
        return self.parts / f"shard-{k:06d}.{suffix}"

    def close(self) -> None:
        """Release the output's lock without finishing (an interrupted run)."""
        lock = getattr(self, "_lock", None)
        if lock is not None and not lock.closed:
            lock.close()

    def _count_done(self) -> int:
        """Complete shards from the first on (a shard written after a gap is not trusted)."""
        present = {int(m.group(1)) for p in self.parts.iterdir() if (m := _SHARD_RE.fullmatch(p.name))}
        k = 0
        while k in present:
            k += 1
        return k

    def done_counts(self) -> list[tuple[str, str | None]]:
        """``(status, error_kind)`` of each record in the complete shards (an earlier,
        interrupted run's records), so that a resumed run reports on the whole output."""
        return list(self._done_counts)

    @property
    def done_inputs(self) -> int:
        """Inputs already written by an earlier, interrupted run of the same command."""
        return self.done_shards * self.shard_size

    # -- writing

    def write_shard(self, k: int, records: list[dict]) -> None:
        """Write shard ``k`` (its records in input order) atomically."""
        try:
            if self.kind == "folder":
                rows = []
                for record in records:
                    rows.append(self._write_page(record))
                data = "".join(json_line(r) for r in rows).encode("utf-8", "surrogatepass")
                _fsync_write(self._shard_path(k), data)
            elif self.kind == "jsonl":
                data = "".join(json_line({f: r.get(f) for f in RECORD_FIELDS})
                               for r in records).encode("utf-8", "surrogatepass")
                _fsync_write(self._shard_path(k), data)
            else:
                import pyarrow as pa
                import pyarrow.parquet as pq

                table = pa.Table.from_pylist([{f: r.get(f) for f in RECORD_FIELDS} for r in records],
                                             schema=arrow_schema())
                path = self._shard_path(k)
                tmp = path.with_name("." + path.name + ".tmp")
                pq.write_table(table, tmp)
                with open(tmp, "rb") as handle:
                    os.fsync(handle.fileno())
                os.replace(tmp, path)
        except OSError as exc:
            raise OutputError(f"cannot write the output {self.out}: {exc.strerror or exc}") from None

    def _write_page(self, record: dict) -> dict:
        row = {f: record.get(f) for f in INDEX_FIELDS if f != "file"}
        row["file"] = None
        if record.get("status") == "ok":
            suffix = ".json" if self.page_format == "json" else ".md"
            stem = safe_relative_name(record.get("_name") or record["id"], record["id"])
            digest = hashlib.sha256(record["id"].encode("utf-8", "surrogatepass")).hexdigest()[:10]
            rel, n = stem + suffix, 1
            while rel in self.used_names:  # one name for two inputs: the later ones get suffixes
                rel = f"{stem}-{digest}" + (f"-{n}" if n > 1 else "") + suffix
                n += 1
            if self.page_format == "json":
                body = json.dumps({f: record.get(f) for f in RECORD_FIELDS}, ensure_ascii=False, indent=2) + "\n"
            else:
                body = record.get("markdown") or ""
            data = body.encode("utf-8", "surrogatepass")
            try:
                path = self.out / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                _fsync_write(path, data)
            except OSError as exc:
                if exc.errno not in (errno.EEXIST, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG):
                    raise
                # the name clashes with a folder (or is too long): the page keeps a plain name
                rel = f"_pages/{digest}" + (f"-{n}" if n > 1 else "") + suffix
                (self.out / "_pages").mkdir(exist_ok=True)
                _fsync_write(self.out / rel, data)
            self.used_names.add(rel)
            row["file"] = rel
        return row

    def finish(self) -> None:
        """Join the shards into the output and remove the work folder."""
        shards = [self._shard_path(k) for k in range(self._count_done())]
        tmp = None
        try:
            if self.kind == "parquet":
                import pyarrow.parquet as pq

                tmp = str(self.out.with_name("." + self.out.name + ".tmp"))
                writer = pq.ParquetWriter(tmp, arrow_schema())
                try:
                    for shard in shards:
                        writer.write_table(pq.read_table(shard), row_group_size=PARQUET_ROW_GROUP)
                finally:
                    writer.close()
                with open(tmp, "rb") as handle:
                    os.fsync(handle.fileno())
                os.replace(tmp, self.out)
            else:
                target = self.out / "index.jsonl" if self.kind == "folder" else self.out
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = _mkstemp(target)
                with os.fdopen(fd, "wb") as handle:
                    for shard in shards:
                        with open(shard, "rb") as src:
                            shutil.copyfileobj(src, handle)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(tmp, target)
            tmp = None
            self._remove_work_folder()
        except OSError as exc:
            raise OutputError(f"cannot write the output {self.out}: {exc.strerror or exc}") from None
        finally:
            if tmp is not None:  # a join that failed leaves no partial file behind
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


class StreamOutput:
    """The records of a batch run as JSON Lines on a text stream (``-o -``: standard
    output), each written and flushed as it comes, in input order. Nothing is kept on
    disk, so such a run cannot resume: run it again from the start. Same methods as
    :class:`ShardedOutput`.

    Raises (from :meth:`write_shard`):
        BrokenPipeError: the reader went away (``| head``): the run stops.
        OutputError: the stream cannot be written otherwise.
    """

    kind = "stream"
    done_shards = 0
    done_inputs = 0

    def __init__(self, stream) -> None:
        self.stream = stream

    def write_shard(self, k: int, records: list[dict]) -> None:
        try:
            for r in records:
                self.stream.write(json_line({f: r.get(f) for f in RECORD_FIELDS}))
            self.stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, UnicodeEncodeError) as exc:
            raise OutputError(f"cannot write to standard output: {getattr(exc, 'strerror', None) or exc}") from None

    def finish(self) -> None:
        pass

    def close(self) -> None:
        pass
