// Light, dark or follow the system: a menu in the top bar; the choice is remembered.
import { Monitor, Moon, Sun } from "lucide-react";
import { useState } from "react";
import { applyThemeChoice, readThemeChoice, type ThemeChoice } from "../../lib/theme";
import { Button } from "../ui/Button";
import { MenuContent, MenuLabel, MenuRadioGroup, MenuRadioItem, MenuRoot, MenuTrigger } from "../ui/Menu";

const OPTIONS: ReadonlyArray<{ value: ThemeChoice; label: string; icon: typeof Sun }> = [
  { value: "system", label: "System", icon: Monitor },
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
];

export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  const Current = OPTIONS.find((option) => option.value === choice)?.icon ?? Monitor;
  return (
    <MenuRoot>
      <MenuTrigger asChild>
        <Button variant="ghost" iconOnly aria-label={`Theme: ${choice}`}>
          <Current size={17} aria-hidden="true" />
        </Button>
      </MenuTrigger>
      <MenuContent align="end" label="Theme">
        <MenuLabel>Theme</MenuLabel>
        <MenuRadioGroup
          value={choice}
          onValueChange={(value) => {
            const next = value as ThemeChoice;
            applyThemeChoice(next);
            setChoice(next);
          }}
        >
          {OPTIONS.map(({ value, label, icon: Icon }) => (
            <MenuRadioItem key={value} value={value}>
              <Icon size={15} aria-hidden="true" />
              {label}
            </MenuRadioItem>
          ))}
        </MenuRadioGroup>
      </MenuContent>
    </MenuRoot>
  );
}
