"""Scale-out: --shard K/N partitions a database's TUs stably, and the
merge of the shards' reports is byte for byte the report of one scan,
with the shards run by hand, by scale/parallel.sh on GNU parallel, or by
scale/slurm.sh on a one-node Slurm the test starts itself."""
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time

from harness import ROOT, Env, check, compdb, load, run, scratch, test, validate, write

# A header finding seen from several TUs (de-duplicated across shards), a
# suppressed one, a TU that does not parse (a notification), plain ones,
# and cross-TU ones: a char passed into a body in another TU, one
# returned from there.
HEADER = "static inline int hdr(char c) { return c == -1; }\n"
CROSS = {1: "int ext_eof(int v) { return v == -1; }\nint ext_get(const char *s) { return *s; }",
         2: "extern int ext_eof(int);\nint call_eof(const char *s) { return ext_eof(s[0]); }",
         7: "extern int ext_get(const char *);\n"
            "int call_get(const char *s) { return ext_get(s) == -1; }"}


def sharded_project(name, n=24):
    d = scratch(name)
    os.mkdir(os.path.join(d, "src"))
    write(os.path.join(d, "src", "h.h"), HEADER)
    files = []
    for i in range(n):
        body = ['#include "h.h"' if i % 3 == 0 else "",
                "int f%d(char c) { return c %s; }" % (i, "== -1" if i % 2 else "< 0"),
                "int g%d(char c) { return c == -1; } /* charscan-ignore CS001: test */" % i
                if i % 5 == 0 else "", CROSS.get(i, "")]
        files.append("src/f%02d.c" % i)
        write(os.path.join(d, files[-1]), "\n".join(body) + "\n")
    write(os.path.join(d, "src/broken.c"), "int broken( {\n")
    files.append("src/broken.c")
    return d, compdb(d, files), files


def tus_of(db, shard):
    p = run(["-p", db, "--shard", shard, "--print-args"])
    check(p.returncode == 0, p.stderr)
    return {json.loads(line)["file"] for line in p.stdout.splitlines()}


@test
def merged_shards_are_the_whole_scan_byte_for_byte():
    d, db, files = sharded_project("shards")
    whole = os.path.join(d, "whole.sarif")
    p = run(["-p", db, "-o", whole, "-q"])
    check(p.returncode == 3, "exit %d %s" % (p.returncode, p.stderr))
    for n in (1, 3, 7):
        parts, store = [], os.path.join(d, "store-%d" % n)
        os.mkdir(store)
        for k in range(1, n + 1):
            parts.append(os.path.join(d, "s%d-%d.sarif" % (n, k)))
            p = run(["-p", db, "--shard", "%d/%d" % (k, n), "-o", parts[-1], "-q",
                     "--summaries", store])
            check(p.returncode in (0, 1, 3), "shard %d/%d: exit %d %s" % (k, n, p.returncode, p.stderr))
        parts.append(os.path.join(d, "x%d.sarif" % n))
        p = run(["-p", db, "--resolve", store, "-o", parts[-1], "-q"])
        check(p.returncode in (0, 1, 3), "--resolve: exit %d %s" % (p.returncode, p.stderr))
        merged = os.path.join(d, "merged-%d.sarif" % n)
        p = run(["merge", "--summaries", store] + parts + ["-o", merged])
        check(p.returncode == 0, p.stderr)
        check(open(merged, "rb").read() == open(whole, "rb").read(),
              "%d shards merged differ from the whole scan" % n)
    validate(whole)
    rs = load(whole)["runs"][0]
    check(len(rs["results"]) >= 20 and any("suppressions" in r for r in rs["results"]) and
          rs["invocations"][0]["toolExecutionNotifications"], "the project lost its variety")
    texts = [r["message"]["text"] for r in rs["results"]]
    check(any("passed by call_eof()" in t for t in texts) and
          any("returned by ext_get()" in t for t in texts) and
          not any("passed to ext_eof()" in t for t in texts),
          "the cross-TU findings are missing: %s" % texts)


@test
def a_bad_summary_store_is_an_error_not_a_smaller_report():
    d, db, files = sharded_project("badstore", n=8)
    store = os.path.join(d, "store")
    os.mkdir(store)
    for k in (1, 2):
        p = run(["-p", db, "--shard", "%d/2" % k, "-o", os.path.join(d, "s%d.sarif" % k), "-q",
                 "--summaries", store])
        check(p.returncode in (0, 1, 3), p.stderr)
    sums = sorted(os.listdir(store))
    check(sums == ["shard-1-of-2.sum", "shard-2-of-2.sum"], "store: %s" % sums)
    out = os.path.join(d, "x.sarif")

    def refused(what, *extra):
        if os.path.exists(out):
            os.remove(out)
        p = run(["-p", db, "--resolve", store, "-o", out, "-q"] + list(extra))
        check(p.returncode == 2 and "summary store" in p.stderr and not os.path.exists(out),
              "%s: exit %d, %s" % (what, p.returncode, p.stderr.strip()))
        if not extra:
            p = run(["merge", "--summaries", store, os.path.join(d, "s1.sarif"), "-o", out])
            check(p.returncode == 2 and "summary store" in p.stderr and not os.path.exists(out),
                  "merge, %s: exit %d, %s" % (what, p.returncode, p.stderr.strip()))
    # Made with other options (--rules): stale for this scan.
    refused("another scan's options", "--rules", "CS001")
    text = open(os.path.join(store, sums[1])).read()
    write(os.path.join(store, sums[1]), text[:text.rindex("end")])
    refused("a truncated shard file")
    lines = text.splitlines()
    write(os.path.join(store, sums[1]), "\n".join([lines[0], "Q\tnot a record"] + lines[1:]) + "\n")
    refused("a malformed shard file")
    os.remove(os.path.join(store, sums[1]))
    refused("a missing shard file")


def sharded_scan(d, db, store, *options, n=2):
    os.mkdir(store)
    parts = []
    for k in range(1, n + 1):
        parts.append(os.path.join(d, "%s-%d.sarif" % (os.path.basename(store), k)))
        p = run(["-p", db, "--shard", "%d/%d" % (k, n), "-o", parts[-1], "-q",
                 "--summaries", store] + list(options))
        check(p.returncode in (0, 1, 3), "shard %d/%d: exit %d %s" % (k, n, p.returncode, p.stderr))
    return parts


@test
def merge_refuses_a_summary_store_of_another_database():
    d, db, files = sharded_project("store-other-db", n=8)
    parts = sharded_scan(d, db, os.path.join(d, "mine"))
    # Another database: one TU fewer.
    other_db = compdb(d, files[:-1], path=os.path.join(d, "other.json"))
    sharded_scan(d, other_db, os.path.join(d, "theirs"))
    out = os.path.join(d, "merged.sarif")
    p = run(["merge", "--summaries", os.path.join(d, "theirs")] + parts + ["-o", out])
    check(p.returncode == 2 and "summary store %s: " % os.path.join(d, "theirs") in p.stderr and
          "another scan than the reports" in p.stderr and not os.path.exists(out),
          "exit %d %s" % (p.returncode, p.stderr))
    # Reports of scans that wrote no store cannot vouch for one.
    bare = os.path.join(d, "bare.sarif")
    run(["-p", db, "-o", bare, "-q"])
    p = run(["merge", "--summaries", os.path.join(d, "mine"), bare, "-o", out])
    check(p.returncode == 2 and "name no store" in p.stderr and not os.path.exists(out),
          "exit %d %s" % (p.returncode, p.stderr))
    p = run(["merge", "--summaries", os.path.join(d, "mine")] + parts + ["-o", out])
    check(p.returncode == 0, p.stderr)


@test
def resolve_names_the_option_that_differs_from_the_shards():
    d, db, files = sharded_project("store-options", n=8)
    store = os.path.join(d, "store")
    sharded_scan(d, db, store, "--signedness", "unsigned", "--rules", "-CS003")
    out = os.path.join(d, "x.sarif")
    for extra, words in ((["--rules", "-CS003"], "made with --signedness=unsigned, this run has "
                          "--signedness=both"),
                         (["--signedness", "unsigned"], "--rules="),
                         (["--signedness", "unsigned", "--rules", "-CS003", "--explain"],
                          "made with --explain=no, this run has --explain=yes")):
        p = run(["-p", db, "--resolve", store, "-o", out, "-q"] + extra)
        check(p.returncode == 2 and words in p.stderr and "summary store %s" % store in p.stderr
              and not os.path.exists(out), "%s: exit %d %s" % (extra, p.returncode, p.stderr))
    p = run(["-p", db, "--resolve", store, "-o", out, "-q", "--signedness", "unsigned",
             "--rules", "-CS003"])
    check(p.returncode in (0, 1, 3), p.stderr)
    # The same options on another database: that is what it says.
    other_db = compdb(d, files[:-1], path=os.path.join(d, "other.json"))
    p = run(["-p", other_db, "--resolve", store, "-o", out, "-q", "--signedness", "unsigned",
             "--rules", "-CS003"])
    check(p.returncode == 2 and "made from another database" in p.stderr, p.stderr)


@test
def an_unwritable_summary_store_fails_before_scanning():
    d, db, _ = sharded_project("store-unwritable", n=4)
    not_a_dir = write(os.path.join(d, "plain"), "a file\n")
    out = os.path.join(d, "s.sarif")
    for store, why in ((os.path.join(not_a_dir, "store"), os.strerror(20)),
                       (os.path.join(d, "missing"), os.strerror(2))):
        p = run(["-p", db, "--summaries", store, "-o", out])
        check(p.returncode == 2 and "cannot write the summary store %s: %s" % (store, why) in p.stderr,
              "exit %d %s" % (p.returncode, p.stderr))
        # src/broken.c, once parsed, says so.
        check("broken.c" not in p.stderr and not os.path.exists(out), "scanned first: " + p.stderr)
    store = os.path.join(d, "store")
    os.mkdir(store)
    p = run(["-p", db, "--shard", "1/2", "--summaries", store, "-o", out, "-q"])
    check(p.returncode in (0, 1, 3) and os.listdir(store) == ["shard-1-of-2.sum"],
          "probe left behind: %s" % os.listdir(store))


@test
def shards_partition_the_tus_and_stay_put():
    d, db, files = sharded_project("partition", n=40)
    everything = tus_of(db, "1/1")
    shards = [tus_of(db, "%d/4" % k) for k in range(1, 5)]
    check(set().union(*shards) == everything and sum(map(len, shards)) == len(everything),
          "not a partition: %s" % [len(s) for s in shards])
    check(all(len(s) >= 4 for s in shards), "a shard is nearly empty: %s" % [len(s) for s in shards])
    # One shard more: a TU stays or moves to the new shard, nowhere else.
    five = [tus_of(db, "%d/5" % k) for k in range(1, 6)]
    for k in range(4):
        check(five[k] <= shards[k], "going from 4 to 5 shards moved TUs between old shards")
    moved = len(five[4])
    check(0 < moved < len(everything) / 2, "%d of %d TUs moved" % (moved, len(everything)))
    # More files: no TU already there changes shard.
    for i in range(10):
        write(os.path.join(d, "src/new%d.c" % i), "int n%d;\n" % i)
    compdb(d, files + ["src/new%d.c" % i for i in range(10)])
    after = [tus_of(db, "%d/4" % k) for k in range(1, 5)]
    check(all(shards[k] <= after[k] for k in range(4)), "adding files moved TUs")
    compdb(d, files)
    # The partition is by path below the source root: a copy elsewhere
    # shards alike.
    copy = scratch("partition-copy")
    shutil.rmtree(copy)
    shutil.copytree(d, copy)
    db3 = compdb(copy, files)
    rel = lambda s, base: {os.path.relpath(f, base) for f in s}
    check(rel(tus_of(db3, "2/4"), copy) == rel(shards[1], d), "a moved checkout shards differently")


@test
def shard_options_are_checked():
    d, db, _ = sharded_project("shard-options", n=2)
    for arg in ("0/3", "4/3", "3", "/3", "1/", "1/0", "a/b", "1/65537", "-1/3"):
        p = run(["-p", db, "--shard", arg])
        check(p.returncode == 2 and "--shard" in p.stderr, "%s: exit %d %s" % (arg, p.returncode, p.stderr))
    p = run(["merge", "--shard", "1/2", os.path.join(d, "x.sarif"), "-o", os.path.join(d, "y.sarif")])
    check(p.returncode == 2 and "--shard" in p.stderr, p.stderr)


@test
def gnu_parallel_recipe_reproduces_the_whole_scan():
    d, db, _ = sharded_project("parallel")
    whole, merged = os.path.join(d, "whole.sarif"), os.path.join(d, "parallel.sarif")
    run(["-p", db, "-o", whole, "-q"])
    p = subprocess.run(["sh", os.path.join(ROOT, "scale", "parallel.sh"), Env.charscan, db, merged,
                        "5", "-j", "2"], capture_output=True, text=True, cwd=d)
    check(p.returncode == 3, "exit %d %s %s" % (p.returncode, p.stdout, p.stderr))
    check(open(merged, "rb").read() == open(whole, "rb").read(), "parallel's merge differs")
    # A shard that cannot run is an error, not a smaller report.
    p = subprocess.run(["sh", os.path.join(ROOT, "scale", "parallel.sh"), "/nonexistent/charscan",
                        db, os.path.join(d, "none.sarif"), "2"], capture_output=True, text=True, cwd=d)
    check(p.returncode == 2 and "shard 1/2 failed" in p.stderr, "exit %d %s" % (p.returncode, p.stderr))
    check(not os.path.exists(os.path.join(d, "none.sarif")), "a report from failed shards")


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class LocalSlurm:
    """A one-node Slurm of its own (munged, slurmctld, slurmd) in a scratch
    folder, on free ports, as root or as the user running the tests."""

    def __init__(self, d):
        self.d, self.env = d, dict(os.environ, SLURM_CONF=os.path.join(d, "slurm.conf"))
        for sub in ("state", "spool", "munge"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)

    def path(self, name):
        return os.path.join(self.d, name)

    def start(self):
        for tool in ("munged", "slurmctld", "slurmd", "sbatch", "sinfo"):
            check(shutil.which(tool), "%s is not installed (install-deps.sh installs slurm-wlm)" % tool)
        key = self.path("munge/key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o600)
        sock = self.path("munge/sock")
        self.daemon(["munged", "--force", "--key-file=" + key, "--socket=" + sock,
                     "--pid-file=" + self.path("munge/pid"), "--log-file=" + self.path("munge/log"),
                     "--seed-file=" + self.path("munge/seed")])
        host, user = socket.gethostname().split(".")[0], pwd.getpwuid(os.getuid()).pw_name
        ctld, slurmd = free_ports(2)
        conf = {"ClusterName": "charscan", "SlurmctldHost": "%s(127.0.0.1)" % host,
                "SlurmctldPort": ctld, "SlurmdPort": slurmd, "AuthType": "auth/munge",
                "AuthInfo": "socket=" + sock, "CredType": "cred/munge", "SlurmUser": user,
                "SlurmdUser": user, "StateSaveLocation": self.path("state"),
                "SlurmdSpoolDir": self.path("spool"), "SlurmctldPidFile": self.path("slurmctld.pid"),
                "SlurmdPidFile": self.path("slurmd.pid"), "SlurmctldLogFile": self.path("slurmctld.log"),
                "SlurmdLogFile": self.path("slurmd.log"), "ProctrackType": "proctrack/linuxproc",
                "TaskPlugin": "task/none", "SelectType": "select/cons_tres",
                "SelectTypeParameters": "CR_Core", "ReturnToService": 2, "MpiDefault": "none",
                "JobAcctGatherType": "jobacct_gather/none",
                "AccountingStorageType": "accounting_storage/none"}
        lines = ["%s=%s" % kv for kv in conf.items()]
        lines.append("NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN" % (host, os.cpu_count()))
        lines.append("PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP")
        write(self.env["SLURM_CONF"], "\n".join(lines) + "\n")
        self.daemon(["slurmctld", "-f", self.env["SLURM_CONF"]])
        self.daemon(["slurmd", "-f", self.env["SLURM_CONF"]])
        for _ in range(60):
            p = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=self.env)
            if p.stdout.strip() == "idle":
                return
            time.sleep(0.5)
        check(False, "the local Slurm did not come up: %s\n%s" % (
            p.stdout + p.stderr, self.logs()))

    def daemon(self, argv):
        p = subprocess.run(argv, capture_output=True, text=True, env=self.env)
        check(p.returncode == 0, "%s: exit %d %s\n%s" % (argv[0], p.returncode, p.stderr, self.logs()))

    def logs(self):
        out = []
        for name in ("slurmctld.log", "slurmd.log", "munge/log"):
            if os.path.exists(self.path(name)):
                out.append("%s: %s" % (name, open(self.path(name)).read()[-1500:]))
        return "\n".join(out)

    def stop(self):
        """Every daemon gone before the test ends (SIGKILL after 15 s)."""
        pids = []
        for pidfile in ("slurmd.pid", "slurmctld.pid", "munge/pid"):
            try:
                pids.append(int(open(self.path(pidfile)).read()))
            except (OSError, ValueError):
                pass
        subprocess.run(["scontrol", "shutdown"], capture_output=True, env=self.env)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
            for _ in range(150):
                if not any(os.path.exists("/proc/%d" % pid) for pid in pids):
                    return
                time.sleep(0.1)


@test
def slurm_job_array_reproduces_the_whole_scan():
    d, db, _ = sharded_project("slurm")
    whole, merged = os.path.join(d, "whole.sarif"), os.path.join(d, "slurm.sarif")
    run(["-p", db, "-o", whole, "-q"])
    cluster = LocalSlurm(scratch("slurm-cluster"))
    try:
        cluster.start()
        p = subprocess.run(["sh", os.path.join(ROOT, "scale", "slurm.sh"), Env.charscan, db, merged,
                            "4", "--wait", "-c", "1"], capture_output=True, text=True, cwd=d,
                           env=cluster.env, timeout=300)
        check(p.returncode == 3, "exit %d %s %s\n%s" % (p.returncode, p.stdout, p.stderr, cluster.logs()))
        check(open(merged, "rb").read() == open(whole, "rb").read(), "Slurm's merge differs")
        check(sorted(f for f in os.listdir(merged + ".shards") if f.endswith(".sarif")) ==
              ["cross-tu.sarif"] + ["shard-%d.sarif" % k for k in range(1, 5)] and
              sorted(f for f in os.listdir(merged + ".shards") if f.endswith(".sum")) ==
              ["shard-%d-of-4.sum" % k for k in range(1, 5)], os.listdir(merged + ".shards"))
    finally:
        cluster.stop()
