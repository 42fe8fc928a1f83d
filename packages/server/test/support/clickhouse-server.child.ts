// Child-process entry of the test ClickHouse server: runs clickhouse-local's main (chDB's
// `query_stable_v2`) on this process's main thread with the arguments it is given, and dies with
// its parent. It does not write configs or wait for readiness: clickhouse-server.ts does.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DataType, isNullPointer, type JsExternal, load, open, restorePointer, wrapPointer } from "ffi-rs";

const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;

/** Field order of chDB's `struct local_result_v2` (chdb.h); only the error is read here. */
const LOCAL_RESULT_V2 = {
  buf: DataType.External,
  len: DataType.U64,
  vec: DataType.External,
  elapsed: DataType.Double,
  rows_read: DataType.U64,
  bytes_read: DataType.U64,
  error_message: DataType.External,
};

/** libchdb.so from the platform package chDB itself depends on, wherever npm put it. */
function libchdbPath(): string {
  const fromChdb = createRequire(createRequire(import.meta.url).resolve("chdb"));
  const platform = `@chdb/lib-${process.platform}-${process.arch}${process.platform === "linux" ? "-gnu" : ""}`;
  return join(dirname(fromChdb.resolve(`${platform}/package.json`)), "libchdb.so");
}

function exitWith(message: string): never {
  process.stderr.write(`clickhouse-server child: ${message}\n`);
  process.exit(1);
}

/**
 * The kernel kills this process when the parent that spawned it dies, even by SIGKILL: no
 * orphan server outlives a crashed test run. Checked after arming, since a parent that died
 * before it would never deliver the signal.
 */
function dieWithParent(): void {
  const parentPid = Number(process.env.SIGHTLINE_CH_PARENT_PID);
  open({ library: "libc", path: "libc.so.6" });
  const armed = load({
    library: "libc",
    funcName: "prctl",
    retType: DataType.I32,
    paramsType: [DataType.I32, DataType.I64],
    paramsValue: [PR_SET_PDEATHSIG, SIGKILL],
  });
  if (armed !== 0) exitWith("prctl(PR_SET_PDEATHSIG) failed");
  if (process.ppid !== parentPid) exitWith("parent exited before the server started");
}

function runClickhouseLocal(args: readonly string[]): void {
  open({ library: "chdb", path: libchdbPath() });
  const argv = ["clickhouse", ...args];
  // ffi-rs calls on this thread (koffi's own stack trips ClickHouse's stack check); the call
  // returns only when the last statement does, so it serves until this process is killed.
  const result = load({
    library: "chdb",
    funcName: "query_stable_v2",
    retType: DataType.External,
    paramsType: [DataType.I32, DataType.StringArray],
    paramsValue: [argv.length, argv],
  });
  if (isNullPointer(result)) exitWith("clickhouse-local returned no result");
  // ffi-rs types a restored struct only as its field list, so the shape is named here.
  const [fields] = restorePointer({
    retType: [LOCAL_RESULT_V2],
    paramsValue: wrapPointer([result]),
  }) as unknown as [{ error_message: JsExternal } | undefined];
  const error = fields?.error_message;
  // clickhouse-local prints most failures to stderr itself and leaves error_message unset.
  const detail =
    error === undefined || isNullPointer(error)
      ? "see the output above"
      : restorePointer<DataType.String>({ retType: [DataType.String], paramsValue: wrapPointer([error]) })[0];
  exitWith(`clickhouse-local stopped: ${detail}`);
}

dieWithParent();
runClickhouseLocal(process.argv.slice(2));
