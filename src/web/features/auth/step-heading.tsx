import type { ReactNode, Ref } from 'react';

type TStepHeadingProps = {
  /**
   * Where the step is the whole screen (the consent page's auth prompt): the
   * id of the screen's title, which names its main landmark. The step's title is then the page's
   * h1; otherwise it is an h2 under the page's own h1 (/login).
   */
  screenTitleId?: string | undefined;
  /** The heading's id when it is not the screen's title. */
  id?: string;
  /** A heading that takes the focus when its step opens. */
  ref?: Ref<HTMLHeadingElement>;
  children: ReactNode;
};

/** A sign-in step's title, at the level its place on the page calls for. */
export function StepHeading({ screenTitleId, id, ref, children }: TStepHeadingProps) {
  const Heading = screenTitleId ? 'h1' : 'h2';
  return (
    <Heading
      className="auth-heading"
      id={screenTitleId ?? id}
      ref={ref}
      tabIndex={ref ? -1 : undefined}
    >
      {children}
    </Heading>
  );
}
