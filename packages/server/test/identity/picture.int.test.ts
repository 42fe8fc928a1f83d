// Profile pictures over HTTP: the bytes decide the format (not the declared type), limits
// answer 413/415/422, the stored picture is a 256x256 WebP without metadata served from the
// metadata store, and removal is idempotent — on every metadata backend.
import type { PictureResult, UserProfile } from "@sightline/contracts";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestContext } from "../support/app.js";
import { metadataBackends } from "../support/metadata.js";
import { expectProblem } from "../support/problem.js";
import { type IdentityHarness, type Signed, signInBySmtp, startIdentityHarness } from "./helpers.js";

function multipart(
  parts: Array<{ name: string; filename?: string; contentType?: string; data: Buffer | string }>,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = "----sightline-test-boundary";
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.contentType === undefined ? "" : `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof part.data === "string" ? Buffer.from(part.data) : part.data);
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });

describe.each(metadataBackends())("profile pictures on $name", (backend) => {
  let h: IdentityHarness;
  let ctx: TestContext;
  let user: Signed;
  beforeAll(async () => {
    h = await startIdentityHarness(backend);
    ctx = h.ctx;
    user = await signInBySmtp(h, "picture@example.com");
  });
  afterAll(async () => {
    await h.close();
  });

  const upload = (data: Buffer | string, contentType = "image/png", name = "file") => {
    const body = multipart([{ name, filename: "me.bin", contentType, data }]);
    return ctx.app.inject({
      method: "POST",
      url: "/api/v1/users/me/picture",
      payload: body.payload,
      headers: { ...body.headers, ...user.headers },
    });
  };

  it("stores a PNG as a 256x256 WebP and serves it at the profile's picture URL", async () => {
    const response = await upload(await solid(640, 480).png().toBuffer(), "image/png");
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<PictureResult>();
    expect(result.message).toBe("Profile picture updated");
    expect(result.picture).toMatch(
      new RegExp(`^https://sightline\\.test/api/v1/users/${user.userId}/picture\\?v=\\d+$`),
    );
    const profile = (
      await ctx.app.inject({ url: "/api/v1/users/me", headers: user.headers })
    ).json<UserProfile>();
    expect(profile.picture).toBe(result.picture);

    const served = await ctx.app.inject({
      url: new URL(result.picture).pathname + new URL(result.picture).search,
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
    expect(served.headers["cache-control"]).toContain("immutable");
    const metadata = await sharp(served.rawPayload).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
      format: "webp",
      width: 256,
      height: 256,
    });
  });

  it("decides by the bytes: a JPEG declared as octet-stream is accepted, its EXIF dropped", async () => {
    const jpeg = await solid(300, 600)
      .jpeg()
      .withExif({ IFD0: { Copyright: "private", Artist: "Ada" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const response = await upload(jpeg, "application/octet-stream");
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL(response.json<PictureResult>().picture);
    const served = await ctx.app.inject({ url: url.pathname + url.search });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("private"))).toBe(false);
  });

  it("accepts WebP and GIF (first frame)", async () => {
    for (const image of [await solid(50, 50).webp().toBuffer(), await solid(40, 30).gif().toBuffer()]) {
      const response = await upload(image, "image/jpeg");
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it("answers 415 for bytes that are not one of the four formats, whatever the declared type", async () => {
    expectProblem(await upload("just some text, honestly", "image/png"), "unsupported_media_type");
    expectProblem(await upload(await solid(20, 20).tiff().toBuffer(), "image/png"), "unsupported_media_type");
  });

  it("answers 422 for an image that cannot be decoded", async () => {
    const png = await solid(64, 64).png().toBuffer();
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    const body = expectProblem(await upload(broken, "image/png"), "validation_error");
    expect(body.errors).toEqual([{ pointer: "/file", message: expect.any(String) }]);
  });

  it("answers 413 above 5 MB", async () => {
    const png = await solid(8, 8).png().toBuffer();
    const large = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024, 1)]);
    expectProblem(await upload(large, "image/png"), "payload_too_large");
  });

  it("answers 422 without a `file` field and 415 for a body that is not multipart", async () => {
    const png = await solid(8, 8).png().toBuffer();
    const wrongField = expectProblem(await upload(png, "image/png", "picture"), "validation_error");
    expect(wrongField.errors).toEqual([{ pointer: "/file", message: "is required" }]);
    const json = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/users/me/picture",
      payload: { file: "x" },
      headers: user.headers,
    });
    expectProblem(json, "unsupported_media_type");
  });

  it("removes the picture idempotently; its URL then answers 404", async () => {
    const uploaded = await upload(await solid(32, 32).png().toBuffer());
    const url = new URL(uploaded.json<PictureResult>().picture);
    for (let i = 0; i < 2; i += 1) {
      const removed = await ctx.app.inject({
        method: "DELETE",
        url: "/api/v1/users/me/picture",
        headers: user.headers,
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toEqual({ message: "Profile picture removed" });
    }
    expect((await ctx.app.inject({ url: "/api/v1/users/me", headers: user.headers })).json()).toMatchObject({
      picture: "",
    });
    expectProblem(await ctx.app.inject({ url: url.pathname }), "not_found");
    expectProblem(await ctx.app.inject({ url: "/api/v1/users/not-a-uuid/picture" }), "validation_error");
  });

  it("removes the picture with the account", async () => {
    const leaving = await signInBySmtp(h, "picture-leaving@example.com");
    const body = multipart([{ name: "file", filename: "a.png", data: await solid(16, 16).png().toBuffer() }]);
    const uploaded = await ctx.app.inject({
      method: "POST",
      url: "/api/v1/users/me/picture",
      payload: body.payload,
      headers: { ...body.headers, ...leaving.headers },
    });
    const url = new URL(uploaded.json<PictureResult>().picture);
    expect((await ctx.app.inject({ url: url.pathname })).statusCode).toBe(200);
    await ctx.app.inject({ method: "DELETE", url: "/api/v1/users/me", headers: leaving.headers });
    expectProblem(await ctx.app.inject({ url: url.pathname }), "not_found");
  });
});
