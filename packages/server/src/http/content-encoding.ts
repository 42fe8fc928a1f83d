// Refuses request bodies in a content coding the route does not decode (415), instead of
// letting compressed bytes reach the JSON parser. Routes opt in with config.contentEncodings.
import { AppError } from "../errors.js";
import type { App } from "./types.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Content codings this route decodes, e.g. ["gzip", "deflate"]. */
    contentEncodings?: readonly string[];
  }
}

export function registerContentEncodingGuard(app: App): void {
  app.addHook("onRequest", async (request) => {
    const header = request.headers["content-encoding"];
    if (header === undefined) return;
    const codings = header
      .split(",")
      .map((coding) => coding.trim().toLowerCase())
      .filter((coding) => coding !== "" && coding !== "identity");
    if (codings.length === 0) return;
    const accepted = request.routeOptions.config.contentEncodings ?? [];
    const refused = codings.filter((coding) => !accepted.includes(coding));
    if (refused.length > 0 || codings.length > 1) {
      const list = accepted.length === 0 ? "none" : accepted.join(", ");
      throw new AppError(
        "unsupported_media_type",
        `Content-Encoding "${header}" is not accepted by this route (accepted: ${list}).`,
      );
    }
  });
}
