// Decoding a protobuf export in paced slices. protobufjs decodes a message in one synchronous
// call, and a 20,000-span export takes well over 100 ms of it; so the two outer levels (export ->
// resource entries -> scope entries) are walked here, as the generated decoders walk them (same
// field numbers, known fields read as their declared type whatever the wire type, unknown ones
// skipped), and each resource, scope, span and log record is decoded by its generated `decode`,
// yielding to the event loop between them when the slice's budget is used.
import type { Pace } from "../../lib/pace.js";
import type { DecodeBounds } from "./otlp.protobuf-bounds.js";

/** protobufjs' Reader, the part used here. */
export interface ProtobufReader {
  pos: number;
  readonly len: number;
  uint32(): number;
  skip(length?: number): unknown;
  skipType(wireType: number): unknown;
}

/** protobufjs' Reader class: the generated decoders' own, so they take its readers as they are. */
export interface ProtobufReaderClass {
  create(buffer: Uint8Array): ProtobufReader;
}

interface MessageDecoder {
  decode(reader: ProtobufReader, length: number): unknown;
}

/** The generated decoders of one signal's resource, scope and item messages. */
export interface ExportShape {
  readonly resource: MessageDecoder;
  readonly scope: MessageDecoder;
  readonly item: MessageDecoder;
}

/** A scopeSpans / scopeLogs entry as decoded: the scope (null when not sent) and its items. */
export interface DecodedScope {
  scope: unknown;
  readonly items: unknown[];
}

/** A resourceSpans / resourceLogs entry as decoded. */
export interface DecodedResource {
  resource: unknown;
  readonly scopes: DecodedScope[];
}

// Field numbers, the same in both signals: ExportXServiceRequest.resourceX = 1;
// ResourceX { resource = 1; scopeX = 2; schema_url = 3 }; ScopeX { scope = 1; items = 2; schema_url = 3 }.
const RESOURCE_ENTRIES = 1;
const RESOURCE = 1;
const SCOPE_ENTRIES = 2;
const SCOPE = 1;
const ITEMS = 2;
const SCHEMA_URL = 3;

/**
 * The export request in `body`, decoded under `bounds` (a 413 at the first cap exceeded) and
 * paced by `pace`. Malformed protobuf throws protobufjs' own errors, as the generated decoder of
 * the whole request would.
 */
export async function decodeExportPaced(
  Reader: ProtobufReaderClass,
  shape: ExportShape,
  body: Uint8Array,
  bounds: DecodeBounds,
  pace: Pace,
): Promise<DecodedResource[]> {
  const reader = Reader.create(body);
  const resources: DecodedResource[] = [];
  // Counting is on only while this decode runs: it is left before every yield.
  const breathe = async (): Promise<void> => {
    bounds.leave();
    await pace.yield();
    bounds.enter();
  };
  bounds.enter();
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if (tag >>> 3 !== RESOURCE_ENTRIES) {
        reader.skipType(tag & 7);
        continue;
      }
      const length = reader.uint32();
      const end = reader.pos + length;
      bounds.resource();
      const entry: DecodedResource = { resource: null, scopes: [] };
      resources.push(entry);
      while (reader.pos < end) {
        const field = reader.uint32();
        switch (field >>> 3) {
          case RESOURCE:
            entry.resource = shape.resource.decode(reader, reader.uint32());
            break;
          case SCOPE_ENTRIES: {
            const scopeLength = reader.uint32();
            const scopeEnd = reader.pos + scopeLength;
            bounds.scope();
            const scope: DecodedScope = { scope: null, items: [] };
            entry.scopes.push(scope);
            while (reader.pos < scopeEnd) {
              const inner = reader.uint32();
              switch (inner >>> 3) {
                case SCOPE:
                  scope.scope = shape.scope.decode(reader, reader.uint32());
                  break;
                case ITEMS:
                  scope.items.push(shape.item.decode(reader, reader.uint32()));
                  break;
                case SCHEMA_URL:
                  reader.skip(reader.uint32());
                  break;
                default:
                  reader.skipType(inner & 7);
              }
              if (pace.due()) await breathe();
            }
            break;
          }
          case SCHEMA_URL:
            reader.skip(reader.uint32());
            break;
          default:
            reader.skipType(field & 7);
        }
        if (pace.due()) await breathe();
      }
    }
  } finally {
    bounds.leave();
  }
  return resources;
}
