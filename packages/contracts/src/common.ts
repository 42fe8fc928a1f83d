// Small shapes shared by many routes: message results and the health answer.
import { type Static, Type } from "typebox";

export const MessageSchema = Type.Object(
  { message: Type.String({ examples: ["Done"] }) },
  { additionalProperties: false },
);
export type Message = Static<typeof MessageSchema>;

const CheckStatus = Type.Union([Type.Literal("ok"), Type.Literal("unavailable")]);

export const HealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal("healthy"), Type.Literal("unhealthy")]),
    service: Type.Literal("sightline"),
    version: Type.String({ examples: ["0.1.0"] }),
    checks: Type.Object({ metadata: CheckStatus, events: CheckStatus }),
  },
  { additionalProperties: false },
);
export type Health = Static<typeof HealthSchema>;
