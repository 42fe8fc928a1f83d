/* global Response */
import { withSightline } from "@sightline/node/next";
import { sightline } from "../../../../../lib/sightline.js";

// No route option: the template comes from the path and the handler's params.
export const GET = withSightline(sightline, async (_request, { params }) =>
  Response.json({ item: (await params).itemId }),
);
