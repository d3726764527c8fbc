/**
 * The hosted-fields SDK a merchant page loads from the platform (`GET /api/v1/hosted-fields/sdk.js`): plain,
 * dependency-free browser JavaScript. It mounts ONE iframe, served by the platform from its own origin, that
 * holds the card number, expiry and CVC inputs, so the card values stay inside that frame; the page only ever
 * receives the resulting token. The page and the frame talk with `postMessage`, each checking the other's
 * origin and window: the SDK accepts messages only from the platform origin (the origin `sdk.js` was loaded
 * from) and from its own iframe.
 *
 *   const fields = MorHostedFields.mount({ clientToken, container: '#card', styles, onChange, timeoutMs });
 *   const { token } = await fields.tokenize(); // { id, createdAt, expiratedAt }
 *   fields.destroy();
 *
 * `tokenize()` rejects with an Error whose `code` says why: the server's `errorCode` (`card.invalid_number`,
 * `card.expired`, `auth.client_token_expired`, `client_token.origin_not_allowed`, …), or `incomplete`,
 * `frame_unavailable`, `network_error`, `busy`, `destroyed`; `field` (`number`, `expiry`, `cvc`) when one is at fault.
 */
export const sdkScript = `/* MorHostedFields: card fields in a frame served by the payment platform; card data never touches this page. */
(function () {
  'use strict';
  if (window.MorHostedFields) return;
  var script = document.currentScript;
  if (!script || !script.src) throw new Error('MorHostedFields: load sdk.js with a <script src="..."> tag');
  var platformOrigin = new URL(script.src).origin;
  var frameUrl = new URL('frame', script.src).href.split('?')[0];
  var SOURCE = 'mor-hosted-fields';
  var DEFAULT_TIMEOUT_MS = 10000;

  function hostedFieldsError(code, message, field) {
    var error = new Error(message);
    error.name = 'HostedFieldsError';
    error.code = code;
    if (field) error.field = field;
    return error;
  }

  function mount(options) {
    options = options || {};
    if (typeof options.clientToken !== 'string' || !options.clientToken) {
      throw hostedFieldsError('invalid_options', 'mount() needs the clientToken your server minted.');
    }
    var container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
    if (!container || typeof container.appendChild !== 'function') {
      throw hostedFieldsError('invalid_options', 'mount() needs a container element or a selector of one.');
    }
    var iframe = document.createElement('iframe');
    iframe.src = frameUrl + '?origin=' + encodeURIComponent(window.location.origin);
    iframe.title = 'Card details';
    iframe.setAttribute('scrolling', 'no');
    iframe.style.border = '0';
    iframe.style.width = '100%';
    iframe.style.height = '130px';
    iframe.style.display = 'block';
    iframe.style.overflow = 'hidden';

    var pending = {};
    var nextId = 1;
    var destroyed = false;
    var settleReady;
    var ready = new Promise(function (resolve, reject) {
      settleReady = function (error) { if (error) reject(error); else resolve(); };
    });
    ready.catch(function () {});
    var timer = setTimeout(function () {
      settleReady(hostedFieldsError('frame_unavailable', 'The card fields did not load.'));
    }, typeof options.timeoutMs === 'number' ? options.timeoutMs : DEFAULT_TIMEOUT_MS);

    function send(message) {
      message.source = SOURCE;
      iframe.contentWindow.postMessage(message, platformOrigin);
    }

    function onMessage(event) {
      if (event.origin !== platformOrigin || event.source !== iframe.contentWindow) return;
      var m = event.data;
      if (!m || typeof m !== 'object' || m.source !== SOURCE) return;
      if (m.type === 'ready') {
        clearTimeout(timer);
        if (typeof m.height === 'number' && m.height > 0) iframe.style.height = Math.ceil(m.height) + 'px';
        send({ type: 'init', clientToken: options.clientToken, styles: options.styles || {} });
        settleReady();
      } else if (m.type === 'change') {
        if (typeof options.onChange === 'function') options.onChange({ complete: m.complete === true });
      } else if (m.type === 'result' && pending[m.id]) {
        var p = pending[m.id];
        delete pending[m.id];
        if (m.token) {
          p.resolve({ token: { id: String(m.token.id), createdAt: String(m.token.createdAt), expiratedAt: String(m.token.expiratedAt) } });
        } else {
          var e = m.error || {};
          p.reject(hostedFieldsError(String(e.code || 'tokenization_failed'), String(e.message || 'The card could not be tokenized.'), e.field));
        }
      }
    }

    window.addEventListener('message', onMessage);
    container.appendChild(iframe);

    return {
      /** Resolves once the fields are loaded; rejects with frame_unavailable when they never load. */
      ready: function () { return ready; },
      /** Tokenizes what the buyer typed: resolves to { token: { id, createdAt, expiratedAt } }. */
      tokenize: function () {
        if (destroyed) return Promise.reject(hostedFieldsError('destroyed', 'These fields were destroyed.'));
        return ready.then(function () {
          return new Promise(function (resolve, reject) {
            var id = nextId++;
            pending[id] = { resolve: resolve, reject: reject };
            send({ type: 'tokenize', id: id });
          });
        });
      },
      /** Removes the frame; pending tokenizations reject with destroyed. */
      destroy: function () {
        if (destroyed) return;
        destroyed = true;
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
        settleReady(hostedFieldsError('destroyed', 'These fields were destroyed.'));
        Object.keys(pending).forEach(function (id) {
          pending[id].reject(hostedFieldsError('destroyed', 'These fields were destroyed.'));
          delete pending[id];
        });
      },
    };
  }

  window.MorHostedFields = { mount: mount };
})();
`;
