// The heartbeat: one small POST a minute (and one at start) telling Sightline this process is
// alive, with the SDK's version, the runtime, and the process's CPU use and memory. Its timer is
// unref'd, so it never keeps the app running; close() stops it. A failed beat is not retried:
// the next one says the same, newer.
import { cpuUsage, memoryUsage, uptime, version } from "node:process";
import { newIds } from "../capture/trace.js";
import { SDK_VERSION } from "../version.js";
import type { HeartbeatWire } from "../wire.js";
import type { Diagnostics } from "./diagnostics.js";
import type { Poster } from "./post.js";

export interface HeartbeatSettings {
  readonly app: string;
  readonly environment: string;
  readonly projectSlug: string | undefined;
  readonly intervalMs: number;
}

/** The path of the heartbeat route, below the client's url. */
export const HEARTBEAT_PATH = "api/v1/ingest/heartbeat";

export class Heartbeat {
  /** Random per process: tells the app's instances apart without naming the host. */
  readonly instanceId = newIds().slice(0, 32);
  private timer: NodeJS.Timeout | undefined;
  private first: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastCpu = cpuUsage();
  private lastAt = performance.now();
  private sent = 0;

  constructor(
    private readonly settings: HeartbeatSettings,
    private readonly poster: Poster,
    private readonly diagnostics: Diagnostics,
  ) {}

  start(): void {
    if (this.timer !== undefined || this.stopped) return;
    this.first = setTimeout(() => void this.beat(), 0);
    this.first.unref();
    this.timer = setInterval(() => void this.beat(), this.settings.intervalMs);
    this.timer.unref();
  }

  /** No beat leaves after this, not even the first one if it has not gone yet. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.first);
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Beats sent and answered 2xx. */
  get delivered(): number {
    return this.sent;
  }

  /** The beat as sent now: CPU as a share of one core since the previous beat. */
  snapshot(): HeartbeatWire {
    const now = performance.now();
    const cpu = cpuUsage(this.lastCpu);
    const elapsedUs = Math.max(1, (now - this.lastAt) * 1000);
    this.lastCpu = cpuUsage();
    this.lastAt = now;
    const memory = memoryUsage();
    const beat: HeartbeatWire = {
      app_id: this.settings.app,
      environment: this.settings.environment,
      instance_id: this.instanceId,
      sdk: "sightline-node",
      sdk_version: SDK_VERSION,
      runtime: `node ${version}`,
      uptime_s: Math.round(uptime()),
      cpu_percent: Math.round(((cpu.user + cpu.system) / elapsedUs) * 10_000) / 100,
      memory_rss_bytes: memory.rss,
      memory_heap_used_bytes: memory.heapUsed,
      interval_s: Math.round(this.settings.intervalMs / 1000),
    };
    if (this.settings.projectSlug !== undefined) beat.project_slug = this.settings.projectSlug;
    return beat;
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    try {
      const body = Buffer.from(JSON.stringify(this.snapshot()));
      const outcome = await this.poster.post(
        HEARTBEAT_PATH,
        body,
        { "content-type": "application/json" },
        false,
      );
      if (outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300) this.sent += 1;
      else {
        const why = outcome.kind === "answer" ? `status ${outcome.status}` : outcome.error.message;
        this.diagnostics.debug(() => `heartbeat not taken: ${why}`);
      }
    } catch (error) {
      this.diagnostics.warnOnce("heartbeat", `could not send a heartbeat: ${String(error)}`);
    }
  }
}
