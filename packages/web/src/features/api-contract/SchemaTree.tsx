// A JSON schema of the inferred contract as a tree of fields: each with its type, format or
// enum, whether it is required, the share of bodies carrying it, and an example where the
// contract kept a redaction-safe one.
import styles from "./Api.module.css";

export type Schema = Readonly<Record<string, unknown>>;

const PRESENCE = "x-sightline-presence";

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : undefined;
}

/** `string (uuid)`, `integer | null`, `enum: paid, refunded`, `array of object`. */
export function typeText(schema: Schema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  const format = typeof schema.format === "string" ? ` (${schema.format})` : "";
  const items = asSchema(schema.items);
  const of = items !== undefined && type.includes("array") ? ` of ${typeText(items)}` : "";
  const values = Array.isArray(schema.enum)
    ? `, one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`
    : "";
  return `${type}${format}${of}${values}`;
}

function exampleText(schema: Schema): string | undefined {
  return Array.isArray(schema.examples) && schema.examples.length > 0
    ? JSON.stringify(schema.examples[0])
    : undefined;
}

/** The properties of an object schema, or of the objects in an array schema. */
function propertiesOf(schema: Schema): { props: Record<string, Schema>; required: Set<string> } | undefined {
  const target = asSchema(schema.properties) !== undefined ? schema : asSchema(schema.items);
  const props = target === undefined ? undefined : asSchema(target.properties);
  if (target === undefined || props === undefined) return undefined;
  const required = new Set(Array.isArray(target.required) ? target.required.map(String) : []);
  return { props: props as Record<string, Schema>, required };
}

export function SchemaTree({ schema, label }: { schema: Schema; label: string }) {
  const fields = propertiesOf(schema);
  if (fields === undefined) {
    const example = exampleText(schema);
    return (
      <p className={styles.field}>
        <span className={styles.fieldType}>{typeText(schema)}</span>
        {example !== undefined ? <span className={styles.sub}>e.g. {example}</span> : null}
      </p>
    );
  }
  return (
    <>
      <p className={styles.sub}>{typeText(schema)}</p>
      <ul className={styles.schema} aria-label={label}>
        <Fields fields={fields} />
      </ul>
    </>
  );
}

function Fields({ fields }: { fields: { props: Record<string, Schema>; required: Set<string> } }) {
  return (
    <>
      {Object.entries(fields.props).map(([name, child]) => {
        const presence = typeof child[PRESENCE] === "number" ? child[PRESENCE] : undefined;
        const example = exampleText(child);
        const nested = propertiesOf(child);
        return (
          <li key={name}>
            <span className={styles.field} data-field={name}>
              <span className={styles.fieldName}>{name}</span>
              <span className={styles.fieldType}>{typeText(child)}</span>
              <span className={styles.sub}>{fields.required.has(name) ? "required" : "optional"}</span>
              {presence !== undefined ? (
                <span className={styles.presence} title="Share of bodies that carried this field">
                  in {Math.round(presence * 1000) / 10} %
                </span>
              ) : null}
              {example !== undefined ? <span className={styles.sub}>e.g. {example}</span> : null}
            </span>
            {nested !== undefined ? (
              <ul>
                <Fields fields={nested} />
              </ul>
            ) : null}
          </li>
        );
      })}
    </>
  );
}
