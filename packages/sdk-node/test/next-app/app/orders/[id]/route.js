/* global Response */
import { setConsumer } from "@sightline/node";
import { withSightline } from "@sightline/node/next";
import { sightline } from "../../../lib/sightline.js";

export const dynamic = "force-dynamic";

// The route comes from this file's path: app/orders/[id]/route.js -> /orders/{id}.
export const GET = withSightline(
  sightline,
  async (request, { params }) => {
    const id = request.headers.get("x-customer");
    if (id) setConsumer(request, { id, name: "Acme Corp", group: "enterprise" });
    return Response.json({ id: (await params).id });
  },
  { route: import.meta.url },
);
