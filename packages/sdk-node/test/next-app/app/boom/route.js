import { withSightline } from "@sightline/node/next";
import { sightline } from "../../lib/sightline.js";

export const dynamic = "force-dynamic";

export const GET = withSightline(sightline, async () => {
  throw new Error("kaboom");
});
