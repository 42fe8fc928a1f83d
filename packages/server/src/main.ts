// Starts and stops a whole server: config -> deps -> app -> listen, and the reverse on close
// (stop accepting, finish in-flight requests, flush pending writes, close stores).
import type { Logger } from "pino";
import { buildApp } from "./app.js";
import type { Config } from "./config/index.js";
import { createDeps, type Deps } from "./deps.js";
import type { App } from "./http/types.js";

export interface RunningServer {
  readonly app: App;
  readonly deps: Deps;
  /** The address the server listens on, e.g. http://127.0.0.1:8080. */
  readonly address: string;
  close(): Promise<void>;
}

export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const deps = await createDeps(config, { logger });
  let app: App;
  try {
    app = await buildApp(deps);
    await app.listen({ port: config.port, host: config.host });
    // Evaluation runs in the serving process (no second scheduler); tests tick by hand.
    deps.alerts.start();
    deps.contract.start();
    deps.uptime.start();
  } catch (error) {
    await deps.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    deps,
    address: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`,
    close() {
      closing ??= (async () => {
        await app.close();
        await deps.close();
      })();
      return closing;
    },
  };
}
