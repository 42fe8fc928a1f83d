// The environment of the `sightline` client commands (login, requests, logs, …, and the MCP
// server): which Sightline to call, with which token, where credentials are kept. Separate from
// the server's Config, of which a client needs nothing.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export interface CliEnvironment {
  /** SIGHTLINE_URL: the Sightline to call when `--url` is not given. */
  readonly url: string | undefined;
  /** SIGHTLINE_TOKEN: a personal access token, preferred to the stored login. */
  readonly token: string | undefined;
  /** SIGHTLINE_PROJECT: the project slug when `--project` is not given. */
  readonly project: string | undefined;
  /** `${XDG_CONFIG_HOME:-~/.config}/sightline`: where `sightline login` stores its token. */
  readonly configDir: string;
  /** NO_COLOR set to anything but the empty string (https://no-color.org). */
  readonly noColor: boolean;
}

const nonEmpty = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
};

export function loadCliEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const configHome = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), ".config");
  return Object.freeze({
    url: nonEmpty(env.SIGHTLINE_URL),
    token: nonEmpty(env.SIGHTLINE_TOKEN),
    project: nonEmpty(env.SIGHTLINE_PROJECT),
    configDir: join(configHome, "sightline"),
    noColor: (env.NO_COLOR ?? "") !== "",
  });
}
