import { useEffect, type RefObject } from 'react';
import { HEIGHT_UPDATE_DEBOUNCE_MS } from '../../../domain/constants';
import { embeddedHeight } from '../../../domain/embed-height';

/** Reports the page's height to the embedding parent whenever it changes (spec §7). */
export function useEmbedHeight(
  embed: boolean,
  target: RefObject<HTMLElement | null>,
  report: (height: number) => void,
) {
  useEffect(() => {
    const element = target.current;
    if (!embed || !element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        report(embeddedHeight(element.scrollHeight, window.innerHeight));
      }, HEIGHT_UPDATE_DEBOUNCE_MS);
    };
    const observer = new ResizeObserver(onResize);
    observer.observe(element);
    onResize();
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [embed, target, report]);
}
