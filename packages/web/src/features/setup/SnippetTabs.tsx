// The snippets as tabs (Radix: arrow keys move between them), the app's framework first.
import * as Tabs from "@radix-ui/react-tabs";
import { useMemo, useState } from "react";
import { CodeBlock } from "../../components/ui/Code";
import { defaultSnippetFor, SNIPPETS, type SnippetContext } from "../../lib/snippets";
import styles from "./Setup.module.css";

export function SnippetTabs({ context, framework }: { context: SnippetContext; framework: string }) {
  const [selected, setSelected] = useState(() => defaultSnippetFor(framework).id);
  const rendered = useMemo(
    () => SNIPPETS.map((snippet) => ({ snippet, code: snippet.render(context) })),
    [context],
  );
  return (
    <Tabs.Root value={selected} onValueChange={setSelected}>
      <Tabs.List className={styles.tabList} aria-label="Ways to send a request record">
        {SNIPPETS.map((snippet) => (
          <Tabs.Trigger key={snippet.id} value={snippet.id} className={styles.tab}>
            {snippet.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {rendered.map(({ snippet, code }) => (
        <Tabs.Content key={snippet.id} value={snippet.id}>
          <p className={styles.hint}>{snippet.hint}</p>
          <CodeBlock code={code} label={`${snippet.label} snippet`} title={snippet.label} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
