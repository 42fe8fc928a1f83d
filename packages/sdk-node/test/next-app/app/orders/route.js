/* global Response */
import { withSightline } from "@sightline/node/next";
import { sightline } from "../../lib/sightline.js";

export const POST = withSightline(sightline, async (request) => {
  await request.json();
  return Response.json({ ok: true, token: "t0p-s3cret" }, { status: 201 });
});
