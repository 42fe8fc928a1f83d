// Where the built dashboard lives, for the server that serves it (the build writes it there).
import { fileURLToPath, URL } from "node:url";

export const dashboardDistDir = fileURLToPath(new URL("./dist/", import.meta.url));
