/** A lifecycle's table as its tests read it: each edge's `from` states and its `to` state. */
type TTransitions<TState extends string> = Record<
  string,
  { readonly from: readonly TState[]; readonly to: TState }
>;

/** Every state a lifecycle reaches from `starts` by its edges, sorted. */
export function statesReached<TState extends string>(
  starts: readonly TState[],
  transitions: TTransitions<TState>,
): TState[] {
  const reached = new Set<TState>(starts);
  for (let grew = true; grew;) {
    grew = false;
    for (const { from, to } of Object.values(transitions)) {
      if (!reached.has(to) && from.some((state) => reached.has(state))) {
        reached.add(to);
        grew = true;
      }
    }
  }
  return [...reached].sort();
}

/** Every state some edge of the lifecycle leaves from. */
export const statesLeft = <TState extends string>(transitions: TTransitions<TState>): Set<TState> =>
  new Set(Object.values(transitions).flatMap((edge): TState[] => [...edge.from]));
