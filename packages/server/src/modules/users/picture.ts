// Profile pictures: the bytes decide the format (PNG, JPEG, WebP, GIF), never the declared
// Content-Type; what is stored is a fresh 256x256 WebP without any metadata of the upload.
import sharp from "sharp";
import { AppError } from "../../errors.js";

export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
const PICTURE_SIZE = 256;
/** A 5 MB file can declare a huge canvas (decompression bomb); refuse beyond ~40 megapixels. */
const MAX_INPUT_PIXELS = 40_000_000;

export type PictureFormat = "png" | "jpeg" | "webp" | "gif";

/** The image format announced by the file's magic bytes, or null for anything else. */
export function sniffImageFormat(bytes: Uint8Array): PictureFormat | null {
  const startsWith = (signature: readonly number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith([0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(ascii("GIF87a")) || startsWith(ascii("GIF89a"))) return "gif";
  if (startsWith(ascii("RIFF")) && startsWith(ascii("WEBP"), 8)) return "webp";
  return null;
}

/**
 * Re-encodes an uploaded image to the stored form: first frame, EXIF orientation applied,
 * cropped to a centred square, 256x256 WebP. Metadata (EXIF, GPS, ICC, XMP) is not carried
 * over because sharp writes none unless asked to.
 */
export async function toStoredPicture(bytes: Buffer): Promise<Buffer> {
  const format = sniffImageFormat(bytes);
  if (format === null) {
    throw new AppError("unsupported_media_type", "The file is not a PNG, JPEG, WebP or GIF image.");
  }
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, pages: 1 })
      .rotate()
      .resize(PICTURE_SIZE, PICTURE_SIZE, { fit: "cover", position: "centre" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (error) {
    throw new AppError("validation_error", `The ${format.toUpperCase()} image cannot be decoded.`, {
      errors: [{ pointer: "/file", message: "is not a readable image" }],
      cause: error,
    });
  }
}
