// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMBED_MESSAGE, FLUTTER_CHANNEL } from '../../domain/embed-message-names';
import { nativeBridge, postToParent } from './embed-bridge';

// The page as the top window of a merchant app's webview: no parent to post to, so
// its messages go to the app's bridge, as JSON.

const host = window as unknown as Record<string, unknown>;

afterEach(() => {
  delete host.ReactNativeWebView;
  delete host[FLUTTER_CHANNEL];
});

describe('postToParent without a parent', () => {
  it("posts each message to React Native's bridge as JSON, consent data included", () => {
    const postMessage = vi.fn();
    host.ReactNativeWebView = { postMessage };
    const message = {
      type: EMBED_MESSAGE.paymentStatus,
      consentId: 'cns_1',
      paymentId: 'pay_1',
      status: 'started',
    } as const;
    expect(postToParent(message)).toBe(true);
    expect(postMessage).toHaveBeenCalledWith(JSON.stringify(message));
  });

  it('posts to the Flutter channel where React Native has none', () => {
    const postMessage = vi.fn();
    host[FLUTTER_CHANNEL] = { postMessage };
    expect(postToParent({ type: EMBED_MESSAGE.consentCompleted, consentId: 'cns_1' })).toBe(true);
    expect(JSON.parse(postMessage.mock.calls[0]![0] as string)).toEqual({
      type: EMBED_MESSAGE.consentCompleted,
      consentId: 'cns_1',
    });
  });

  it('posts nowhere in a browser of its own, or to something that is no bridge', () => {
    expect(nativeBridge()).toBeNull();
    expect(postToParent({ type: EMBED_MESSAGE.closeRequest })).toBe(false);
    host.ReactNativeWebView = { postMessage: 'not a function' };
    expect(nativeBridge()).toBeNull();
  });
});
