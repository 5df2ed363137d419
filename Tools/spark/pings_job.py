"""Spark job 2: a table of pings as fleets store them (Parquet: request id, role, time, latitude,
longitude, accuracy, speed, state), grouped by request, each request's pings streamed to TraceKit
on standard input as CSV with role and state columns, the per-request lines reduced by
`tracekit merge`.

Each group is one trip of one batch: the task runs

    tracekit batch - --trip REQUEST.csv --index I --of N --corpus CORPUS --jsonl --jobs 1

with the request's CSV on standard input, where I is the request's place among the N requests'
names sorted by their bytes (the order of a folder batch; the names are collected on the driver
and broadcast) and CORPUS the batch's name. The lines,
saved as text files, merge into the reports of one `tracekit batch CORPUS --jobs 1` over a folder
CORPUS holding each request as REQUEST.csv (README, "Scale-out on Spark").

Usage, in local mode or on a cluster:

    python Tools/spark/pings_job.py --tracekit .build/release/tracekit --table pings.parquet \
        --corpus requests/ --partitions 4 --out /tmp/request-lines    # then: tracekit merge /tmp/request-lines/part-*

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


def request_texts(spark, table, partitions):
    """Each request's CSV, made by Spark SQL in the JVM (no ping passes through Python): an RDD
    of (trip name, CSV text) in `partitions` partitions. The same rows as request_csv's (by role,
    then time; times in UTC to the millisecond), numbers as Spark writes a double (`1.0E-4` for
    0.0001, which TraceKit reads alike). Sets the session's time zone to UTC.
    """
    from pyspark.sql import functions as F

    spark.conf.set("spark.sql.session.timeZone", "UTC")

    def cell(column):
        return F.coalesce(F.col(column).cast("string"), F.lit(""))

    line = F.concat_ws(",", F.col("role"), F.date_format("time", "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"),
                       *(cell(c) for c in COLUMNS[2:]))
    rows = F.sort_array(F.collect_list(F.struct("role", "time", line.alias("line"))))
    texts = spark.read.parquet(table).groupBy("request_id").agg(F.concat_ws("\n", rows.getField("line")).alias("csv"))
    header = ",".join(COLUMNS) + "\n"
    return texts.repartition(partitions).rdd.map(lambda r: (trip_name(r[0]), header + r[1] + "\n"))


def trip_name(request):
    """A request's trip name: the name of its CSV in the folder a batch would read."""
    return f"{request}.csv"


def stream_lines(tracekit, corpus, indices, extra):
    """The function each partition runs: each of its requests streamed to `tracekit batch - --trip`,
    one JSON line each; `indices` (a broadcast) gives each trip name's place in the batch.

    `tracekit batch` exits 0, or 1 when the trip failed to replay (its line says so and the merge
    reports it); any other status (usage) fails the task, and Spark's retry streams the requests
    again, which the merge counts once.
    """
    from corpus_job import executable

    def run(groups):
        count = len(indices.value)
        for name, text in groups:
            command = [executable(tracekit), "batch", "-", "--trip", name, "--index", str(indices.value[name]),
                       "--of", str(count), "--corpus", corpus, "--jsonl", "--jobs", "1", *extra]
            done = subprocess.run(command, input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if done.returncode not in (0, 1):
                raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
            # Split at "\n" only (str.splitlines() also breaks inside a JSON string at U+2028 and others).
            yield from (line for line in done.stdout.split("\n") if line)

    return run


def run_job(spark, table, tracekit, corpus, partitions, out, extra=()):
    """Streams every request of the Parquet `table` to TraceKit on `partitions` Spark tasks and
    saves the lines under `out` (part-NNNNN files). Returns the number of requests (the batch's size).

    The requests' trip names (the table's distinct request ids, without their pings) are collected
    on the driver, sorted by their bytes as a folder batch sorts file names, numbered and broadcast
    (about 100 bytes a request: some 100 MB for a million), so each line names its place in the batch.
    """
    ids = spark.read.parquet(table).select("request_id").distinct().collect()
    names = sorted((trip_name(r[0]) for r in ids), key=lambda name: name.encode("utf-8"))
    indices = spark.sparkContext.broadcast({name: i for i, name in enumerate(names)})
    request_texts(spark, table, partitions).mapPartitions(stream_lines(tracekit, corpus, indices, list(extra))).saveAsTextFile(out)
    indices.unpersist()
    return len(names)


def main():
    import argparse

    from pyspark.sql import SparkSession

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tracekit", default="./tracekit", help="the tracekit binary, as the executors see it")
    parser.add_argument("--table", required=True, help="the Parquet table of pings")
    parser.add_argument("--corpus", required=True, help="the batch's name, as 'tracekit batch' would be given the folder")
    parser.add_argument("--partitions", type=int, default=2, help="tasks")
    parser.add_argument("--out", required=True, help="folder for the lines (part-NNNNN files)")
    parser.add_argument("batch_options", nargs="*", help="more batch options after --, e.g. -- --policy quiet.json")
    args = parser.parse_args()
    spark = SparkSession.builder.appName("tracekit-pings").config("spark.sql.session.timeZone", "UTC").getOrCreate()
    for module in ("corpus_job.py", "pings_job.py"):  # the executors' Python imports them
        spark.sparkContext.addPyFile(os.path.join(os.path.dirname(os.path.abspath(__file__)), module))
    run_job(spark, args.table, args.tracekit, args.corpus, args.partitions, args.out, args.batch_options)
    spark.stop()


if __name__ == "__main__":
    main()
