"""Spark job 1: a corpus of trace files replayed by TraceKit on Spark's executors, one shard per
partition, the per-trip lines saved as text files for `tracekit merge`.

Every task runs `tracekit batch CORPUS --shard I/N --jsonl --jobs 1` over the WHOLE corpus
(a folder or a manifest the executors can read), I being its partition's index: so every line
names the same batch (its inputs and size) and numbers its trip in that batch's order, which is
what `tracekit merge` needs to reduce the lines to the reports of one `tracekit batch CORPUS`.
(Piping a chunk of a manifest through `tracekit batch -` per partition would make a batch per
chunk, which merge refuses.)

Usage, in local mode or on a cluster (README, "Scale-out on Spark"):

    python Tools/spark/corpus_job.py --tracekit .build/release/tracekit --corpus Traces/ \
        --partitions 3 --out /tmp/replays            # then: tracekit merge /tmp/replays/part-*

The engine's Python, not the product's: TraceKit itself is the `tracekit` binary.
"""

import argparse
import os
import subprocess


def executable(tracekit):
    """The binary on this executor: the path as given (a shared or installed copy, or the task's
    working folder, where YARN and Kubernetes put `--files` and `--archives`), else under Spark's
    own folder for them (local and standalone mode)."""
    if os.path.exists(tracekit):
        return tracekit
    from pyspark import SparkFiles

    shipped = os.path.join(SparkFiles.getRootDirectory(), tracekit)
    return shipped if os.path.exists(shipped) else tracekit


def shard_lines(tracekit, corpus, partitions, cwd, extra):
    """The function each partition runs: its shard of the corpus, one JSON line per trip.

    `tracekit batch` exits 0, or 1 when a trip failed to replay (its line says so and the merge
    reports it); any other status (usage, an unreadable corpus) fails the task, and Spark's retry
    writes the shard again, which the merge counts once.
    """

    def run(index, _rows):
        command = [executable(tracekit), "batch", corpus, "--shard", f"{index}/{partitions}", "--jsonl", "--jobs", "1", *extra]
        done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode not in (0, 1):
            raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
        # Split at "\n" only: str.splitlines() also breaks at U+2028, U+2029 and U+0085, which a
        # JSON line may hold unescaped inside a string (a path, a quoted bad value).
        return iter(line for line in done.stdout.split("\n") if line)

    return run


def run_job(sc, tracekit, corpus, partitions, out, cwd=None, extra=()):
    """Replays `corpus` on `partitions` Spark tasks and saves the lines under `out` (part-NNNNN files).

    `tracekit` and `corpus` are paths as the executors see them; `cwd` the folder they are relative
    to (None: the executor's working folder, where spark-submit's --files land).
    """
    shards = sc.parallelize(range(partitions), partitions)
    lines = shards.mapPartitionsWithIndex(shard_lines(tracekit, corpus, partitions, cwd, list(extra)))
    lines.saveAsTextFile(out)
    return out


def main():
    from pyspark.sql import SparkSession

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tracekit", default="./tracekit", help="the tracekit binary, as the executors see it")
    parser.add_argument("--corpus", required=True, help="the corpus folder or manifest, as the executors see it")
    parser.add_argument("--partitions", type=int, default=2, help="tasks, one shard each")
    parser.add_argument("--out", required=True, help="folder for the lines (part-NNNNN files)")
    parser.add_argument("--cwd", default=None, help="folder the paths are relative to on the executors")
    parser.add_argument("batch_options", nargs="*", help="more batch options after --, e.g. -- --policy quiet.json")
    args = parser.parse_args()
    spark = SparkSession.builder.appName("tracekit-corpus").getOrCreate()
    spark.sparkContext.addPyFile(__file__)  # the executors' Python imports this module
    run_job(spark.sparkContext, args.tracekit, args.corpus, args.partitions, args.out, args.cwd, args.batch_options)
    spark.stop()


if __name__ == "__main__":
    main()
