/** A notification as a test sees it. */
export interface Notification {
  method: string;
  params?: Record<string, unknown>;
}

/** Every notification a test client received, with a way to wait for one. */
export class NotificationLog {
  readonly all: Notification[] = [];
  private waiters: { match: (n: Notification) => boolean; resolve: (n: Notification) => void }[] = [];

  push(n: Notification): void {
    this.all.push(n);
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(n)) return true;
      w.resolve(n);
      return false;
    });
  }

  /** The notifications with this method. */
  byMethod(method: string): Notification[] {
    return this.all.filter((n) => n.method === method);
  }

  /** Resolves with the first notification (already received or future) that matches. */
  waitFor(
    method: string,
    match: (n: Notification) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<Notification> {
    const test = (n: Notification) => n.method === method && match(n);
    const seen = this.all.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${method} notification within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        match: test,
        resolve: (n) => {
          clearTimeout(timer);
          resolve(n);
        },
      });
    });
  }

  clear(): void {
    this.all.length = 0;
  }
}
