// A minimal stand-in for Stripe.js (which cannot load here): enough of its surface for
// @stripe/react-stripe-js to mount a Payment Element and for confirmPayment to settle the
// payment at the local Stripe double.
(function () {
  // Requests go to Stripe's API host (allowed by the site's CSP); the test forwards them to the double.
  const DOUBLE = 'https://api.stripe.com';
  function makeElement() {
    const handlers = {};
    const el = {
      mount(target) {
        const node = typeof target === 'string' ? document.querySelector(target) : target;
        node.innerHTML =
          '<label style="display:block;font:14px sans-serif">Card number<input aria-label="Card number" value="4242 4242 4242 4242" style="display:block;width:100%;padding:8px;border:1px solid #ccc;border-radius:6px"></label>';
        setTimeout(() => (handlers.ready || []).forEach((h) => h({ elementType: 'payment' })), 0);
      },
      on(event, handler) {
        (handlers[event] ||= []).push(handler);
        return el;
      },
      off() {
        return el;
      },
      once(event, handler) {
        return el.on(event, handler);
      },
      update() {},
      unmount() {},
      destroy() {},
      collapse() {},
      focus() {},
      blur() {},
      clear() {},
    };
    return el;
  }
  window.Stripe = function Stripe() {
    let clientSecret = null;
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      // react-stripe-js recognises a Stripe instance by these methods.
      createToken() {
        return Promise.reject(new Error('not in the stand-in'));
      },
      createPaymentMethod() {
        return Promise.reject(new Error('not in the stand-in'));
      },
      confirmCardPayment() {
        return Promise.reject(new Error('not in the stand-in'));
      },
      elements(options) {
        clientSecret = options && options.clientSecret;
        const created = {};
        return {
          create(type) {
            created[type] = makeElement();
            return created[type];
          },
          getElement(type) {
            return created[type] || null;
          },
          update() {},
          fetchUpdates() {
            return Promise.resolve({});
          },
          submit() {
            return Promise.resolve({});
          },
          on() {},
        };
      },
      async confirmPayment(options) {
        const email = (options && options.confirmParams && options.confirmParams.receipt_email) || undefined;
        const id = String(clientSecret).split('_secret_')[0];
        if (window.__failNextPayment) {
          await fetch(DOUBLE + '/__control/settle', { method: 'POST', body: JSON.stringify({ id, status: 'failed' }) });
          return { error: { type: 'card_error', message: 'Your card was declined.' } };
        }
        const settled = await fetch(DOUBLE + '/__control/settle', { method: 'POST', body: JSON.stringify({ id, status: 'succeeded', email }) });
        // A payment Stripe refuses to confirm (one that was cancelled): Stripe's error, as Stripe.js gives it.
        if (!settled.ok) return { error: (await settled.json()).error };
        return { paymentIntent: { id, status: 'succeeded' } };
      },
    };
  };
})();
