// What `sightline login` accepts as the pasted answer: the code, or the link that carries it.
import { describe, expect, it } from "vitest";
import { magicTokenOf } from "./login.js";

const TOKEN = "kV7hQ2mZ0pY4sW9cT1bN6xR3fJ8uL5aE0dG2iK7oMqS";

describe("magicTokenOf", () => {
  it("takes the code as pasted, blanks around it ignored", () => {
    expect(magicTokenOf(`  ${TOKEN}\n`)).toBe(TOKEN);
  });

  it("takes the token out of the link", () => {
    expect(magicTokenOf(`https://sightline.example.com/auth/verify?token=${TOKEN}`)).toBe(TOKEN);
    expect(magicTokenOf(`<https://x.test/auth/verify?a=1&token=${TOKEN}#top>`)).toBe(TOKEN);
  });

  it("refuses what is neither", () => {
    expect(() => magicTokenOf("hello there")).toThrow(/neither the code nor the link/);
    expect(() => magicTokenOf("https://x.test/auth/verify")).toThrow(/neither/);
  });
});
