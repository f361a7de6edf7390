/**
 * The browser's next task: between two, a phone draws a frame or answers a tap. Work that would
 * be one long task on a phone (four times a laptop's time) is cut with it.
 */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
