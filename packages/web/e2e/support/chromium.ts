// Which Chromium the browser tests drive: Debian's package (never a browser downloaded by npm),
// or CHROMIUM_PATH. The flags keep it quiet on a closed network and fit a root container.
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Belt and braces for "nothing leaves the machine": any other host fails to resolve.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

export const INSTALL_HINT =
  "Install Debian's Chromium (apt-get install -y --no-install-recommends chromium) or set CHROMIUM_PATH.";

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}
