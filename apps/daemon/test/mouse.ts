import type { Session } from '@argus/cdp';

/** A person's click at a point (viewport CSS px): the mouse moved there, the left button pressed, released. */
export async function clickAt(session: Session, point: { x: number; y: number }): Promise<void> {
  await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
  for (const type of ['mousePressed', 'mouseReleased'] as const)
    await session.send('Input.dispatchMouseEvent', {
      type,
      x: point.x,
      y: point.y,
      button: 'left',
      buttons: type === 'mousePressed' ? 1 : 0,
      clickCount: 1,
    });
}
