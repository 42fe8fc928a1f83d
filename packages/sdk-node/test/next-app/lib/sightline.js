// The app's one Sightline client; key, app and URL come from SIGHTLINE_* variables at start.
import { createSightline } from "@sightline/node";

export const sightline = createSightline({
  environment: " Staging ",
  flushIntervalMs: 50,
  captureHeaders: true,
  redactHeaders: [/^x-internal-/],
  captureBodies: true,
});
