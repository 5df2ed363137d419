"""Spark job 2: a table of pings as fleets store them (Parquet: request id, role, time, latitude,
longitude, accuracy, speed, state), grouped by request, each request's pings streamed to TraceKit
on standard input as CSV with role and state columns.

Two reductions, because of what TraceKit reads today:

- `replay_requests`: each group piped to `tracekit replay - --input-format csv --format json`,
  one `tracekit-replay/2` report per request. `tracekit merge` cannot reduce these: it reads only
  `tracekit-batch-trip/2` lines, and `batch` takes its trips from files, not standard input
  (README, "Scale-out on Spark").
- `write_requests`: each group written as `REQUEST.csv` into a folder the executors share, which
  corpus_job.py then replays one shard per task for `tracekit merge`.

The engine's Python, not the product's.
"""

import csv
import io
import os
import subprocess
from datetime import datetime, timezone

COLUMNS = ["role", "time", "latitude", "longitude", "accuracy", "speed", "state"]


def iso(t):
    """A ping's time as the CSV carries it: ISO 8601 UTC, milliseconds."""
    t = t.astimezone(timezone.utc)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def trip_pings(tracekit, sidecar, request):
    """The pings of one bundled trip (a sidecar naming its traces by role, with a timeline), as a
    fleet's table holds them: one dict per fix, the state in force at its time (None before the
    timeline's first state). Reads each trace through `tracekit convert TRACE - --to csv`.
    """
    import json

    with open(sidecar) as f:
        scenario = json.load(f)
    timeline = sorted((parse_time(t["at"]), t["state"]) for t in scenario.get("timeline", []))
    folder = os.path.dirname(sidecar)
    for role, trace in sorted(scenario["traces"].items()):
        done = subprocess.run([tracekit, "convert", os.path.join(folder, trace), "-", "--to", "csv"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True)
        for row in csv.DictReader(io.StringIO(done.stdout)):
            if not row["time"]:
                continue
            time = parse_time(row["time"])
            state = None
            for at, s in timeline:
                if at <= time:
                    state = s
            yield {
                "request_id": request, "role": role, "time": time,
                "latitude": float(row["latitude"]), "longitude": float(row["longitude"]),
                "accuracy": float(row["hAcc"]) if row["hAcc"] else None,
                "speed": float(row["speed"]) if row["speed"] else None,
                "state": state,
            }


def request_csv(pings):
    """One request's pings as the CSV TraceKit reads on standard input: role and state columns,
    rows by role, then time."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for p in sorted(pings, key=lambda p: (p["role"], p["time"])):
        writer.writerow([p["role"], iso(p["time"]), repr(p["latitude"]), repr(p["longitude"]),
                         "" if p["accuracy"] is None else repr(p["accuracy"]),
                         "" if p["speed"] is None else repr(p["speed"]), p["state"] or ""])
    return out.getvalue()


def replay_csv(tracekit, text, cwd=None):
    """`tracekit replay -` on one request's CSV: (exit status, the tracekit-replay/2 JSON)."""
    done = subprocess.run([tracekit, "replay", "-", "--input-format", "csv", "--format", "json"],
                          input=text, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return done.returncode, done.stdout


def grouped(spark, table, partitions):
    """The table's pings grouped by request: an RDD of (request id, [ping dict])."""
    rows = spark.read.parquet(table).rdd.map(lambda r: (r["request_id"], r.asDict()))
    return rows.groupByKey(partitions).mapValues(list)


def replay_requests(spark, table, tracekit, partitions):
    """Each request's pings streamed to `tracekit replay -`: {request id: (exit status, JSON)}."""
    return dict(grouped(spark, table, partitions).mapValues(lambda p: replay_csv(tracekit, request_csv(p))).collect())


def write_requests(spark, table, folder, partitions):
    """Each request's pings written as FOLDER/REQUEST.csv (a folder the executors share): a corpus
    for corpus_job.py. Returns the requests written."""

    def write(kv):
        request, pings = kv
        with open(os.path.join(folder, f"{request}.csv"), "w") as f:
            f.write(request_csv(pings))
        return request

    os.makedirs(folder, exist_ok=True)
    return sorted(grouped(spark, table, partitions).map(write).collect())
