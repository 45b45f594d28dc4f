// Demo shop: the cart lives in localStorage; the signed-in user in sessionStorage. Plain JavaScript.
/* global document, localStorage, sessionStorage, location, URLSearchParams */
(function () {
  var PRODUCTS = {
    hat: { name: 'Hat', price: 20 },
    socks: { name: 'Socks', price: 5 },
    scarf: { name: 'Scarf', price: 12 },
  };

  function cart() {
    try {
      return JSON.parse(localStorage.getItem('cart') || '[]');
    } catch {
      return [];
    }
  }

  function saveCart(lines) {
    localStorage.setItem('cart', JSON.stringify(lines));
  }

  function addToCart(id) {
    var lines = cart();
    var line = lines.find(function (l) {
      return l.id === id;
    });
    if (line) line.qty += 1;
    else lines.push({ id: id, qty: 1 });
    saveCart(lines);
    updateCount();
    console.log('Added ' + id + ' to the cart');
  }

  function count() {
    return cart().reduce(function (n, l) {
      return n + l.qty;
    }, 0);
  }

  function updateCount() {
    var el = document.getElementById('cart-count');
    if (el) el.textContent = String(count());
  }

  // The total of the cart. BUG (deliberate, for the demo): the second line's quantity is ignored.
  function total(lines) {
    return lines.reduce(function (sum, line, index) {
      var price = PRODUCTS[line.id].price;
      return sum + (index === 1 ? price : price * line.qty);
    }, 0);
  }

  function applyTheme() {
    var theme = new URLSearchParams(location.search).get('theme');
    if (theme === 'new') {
      document.body.classList.add('theme-new');
      var promo = document.createElement('div');
      promo.className = 'promo';
      promo.id = 'promo';
      promo.textContent = 'New season sale: 20% off everything!';
      document.body.insertBefore(promo, document.querySelector('main'));
    }
  }

  function initLogin() {
    var form = document.getElementById('login-form');
    if (!form) return;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var user = document.getElementById('username').value.trim();
      var error = document.getElementById('login-error');
      if (user === '') {
        error.textContent = 'Please enter a username';
        error.classList.remove('hidden');
        return;
      }
      sessionStorage.setItem('user', user);
      location.href = 'products.html' + location.search;
    });
  }

  function initProducts() {
    var list = document.getElementById('products');
    if (!list) return;
    var user = sessionStorage.getItem('user');
    document.getElementById('welcome').textContent = user ? 'Signed in as ' + user : 'Browsing as a guest';
    Object.keys(PRODUCTS).forEach(function (id) {
      var p = PRODUCTS[id];
      var card = document.createElement('div');
      card.className = 'card product';
      card.id = 'product-' + id;
      card.innerHTML =
        '<span class="name">' +
        p.name +
        '</span><span class="price">$' +
        p.price +
        '</span>' +
        '<button type="button" data-add="' +
        id +
        '">Add to cart</button>';
      list.appendChild(card);
    });
    list.addEventListener('click', function (event) {
      var id = event.target.getAttribute && event.target.getAttribute('data-add');
      if (id) addToCart(id);
    });
    updateCount();
  }

  function initCart() {
    var body = document.getElementById('cart-lines');
    if (!body) return;
    var lines = cart();
    lines.forEach(function (line) {
      var p = PRODUCTS[line.id];
      var row = document.createElement('tr');
      row.id = 'line-' + line.id;
      row.innerHTML =
        '<td class="name">' +
        p.name +
        '</td><td class="qty">' +
        line.qty +
        '</td><td class="line-total">$' +
        p.price * line.qty +
        '</td>';
      body.appendChild(row);
    });
    document.getElementById('empty').classList.toggle('hidden', lines.length > 0);
    document.getElementById('total').textContent = 'Total: $' + total(lines);
    document.getElementById('clear').addEventListener('click', function () {
      saveCart([]);
      location.reload();
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    applyTheme();
    initLogin();
    initProducts();
    initCart();
    updateCount();
  });
})();
