// The draft behind a long editor (alert rules, SLOs, uptime checks) and its one save: a change
// clears the server's refusal, the refusal's messages by JSON pointer, and text inputs bound to
// the draft's string fields.
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import { type ChangeEvent, useState } from "react";
import { type ApiError, isApiError } from "../../lib/api-client";

/** The keys of a draft whose values are the text of an input. */
export type TextKey<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string;

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface DraftForm<D, R> {
  readonly draft: D;
  readonly set: (patch: Partial<D>) => void;
  readonly save: UseMutationResult<R, Error, void>;
  readonly error: ApiError | undefined;
  readonly fieldError: (pointer: string) => string | undefined;
  /** What a field editing `key` takes: its value, its change, the refusal under `pointer` (`/key`). */
  readonly bind: (
    key: TextKey<D>,
    pointer?: string,
  ) => { value: string; onChange: (event: ChangeEvent<Control>) => void; error: string | undefined };
  /** The same for fields that hand over the value itself (`NameField`, `DescriptionField`). */
  readonly bindValue: (
    key: TextKey<D>,
    pointer?: string,
  ) => { value: string; onValue: (value: string) => void; error: string | undefined };
}

export function useDraftForm<D extends object, R>({
  initial,
  save,
  onSaved,
  fieldMessage = (error, pointer) => error.fieldMessage(pointer),
}: {
  initial: D | (() => D);
  save: (draft: D) => Promise<R>;
  onSaved: (saved: R, draft: D) => void;
  /** Where a refusal's message for a pointer is, when the body nests the draft's fields. */
  fieldMessage?: (error: ApiError, pointer: string) => string | undefined;
}): DraftForm<D, R> {
  const [draft, setDraft] = useState<D>(initial);
  const mutation = useMutation({
    mutationFn: () => save(draft),
    onSuccess: (saved) => onSaved(saved, draft),
  });
  const set = (patch: Partial<D>) => {
    setDraft((current) => ({ ...current, ...patch }));
    // A refusal is about what was sent: it goes once the person changes the form.
    if (mutation.isError) mutation.reset();
  };
  const error = isApiError(mutation.error) ? mutation.error : undefined;
  const fieldError = (pointer: string) => (error === undefined ? undefined : fieldMessage(error, pointer));
  const bind = (key: TextKey<D>, pointer = `/${key}`) => ({
    value: draft[key] as string,
    onChange: (event: ChangeEvent<Control>) => set({ [key]: event.target.value } as Partial<D>),
    error: fieldError(pointer),
  });
  const bindValue = (key: TextKey<D>, pointer = `/${key}`) => ({
    value: draft[key] as string,
    onValue: (value: string) => set({ [key]: value } as Partial<D>),
    error: fieldError(pointer),
  });
  return { draft, set, save: mutation, error, fieldError, bind, bindValue };
}
