-- Neovim's own LSP client (0.7 and later) against `codenav lsp`, run headless by
-- tests/integration/test_nvim.py:
--   nvim --headless --clean -n -i NONE -c 'luafile nvim_lsp_client.lua'
-- Environment: CODENAV_ARGV (the server's command, a JSON array), CODENAV_ROOT (the fixture
-- repository), CODENAV_OUT (where the answers go, as JSON). Each question is asked from
-- the editor's cursor, as a user's keystroke would: the file is opened in a buffer, the
-- cursor put on the name, and the position made by vim.lsp.util.make_position_params.

local argv = vim.fn.json_decode(os.getenv("CODENAV_ARGV"))
local root = os.getenv("CODENAV_ROOT")
local out_path = os.getenv("CODENAV_OUT")
local TIMEOUT = 30000 -- ms per request
local answers = { requests = {} }

local function finish(code)
  local file = assert(io.open(out_path, "w"))
  file:write(vim.json.encode(answers))
  file:close()
  vim.cmd(code == 0 and "qall!" or ("cquit " .. code))
end

local function ask(client, bufnr, name, method, params)
  local response, err = client.request_sync(method, params, TIMEOUT, bufnr)
  if response == nil then
    answers.requests[name] = { error = tostring(err) }
  elseif response.err ~= nil then
    answers.requests[name] = { error = response.err }
  else
    -- an empty answer must stay visible as such, not vanish from the JSON
    answers.requests[name] = { result = response.result == nil and vim.NIL or response.result }
  end
end

-- Open `rel` in a buffer attached to the client, with the cursor on `text` in line `line`
-- (1-based); the position the editor would send for it.
local function at(client_id, rel, line, text)
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. rel))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(bufnr, client_id)
  local col = 0
  if text ~= nil then
    local found = string.find(vim.api.nvim_buf_get_lines(bufnr, line - 1, line, true)[1],
      text, 1, true)
    assert(found, text .. " is not on line " .. line .. " of " .. rel)
    col = found - 1
  end
  vim.api.nvim_win_set_cursor(0, { line, col })
  return bufnr, vim.lsp.util.make_position_params()
end

local function run()
  vim.o.hidden = true -- a changed buffer stays open (unsaved) while another file is edited
  local exited = nil
  local client_id = vim.lsp.start_client({
    name = "codenav",
    cmd = argv,
    root_dir = root,
    on_exit = function(code, signal) exited = { code = code, signal = signal } end,
  })
  assert(client_id, "vim.lsp.start_client refused the configuration")
  local ready = vim.wait(TIMEOUT, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return (client ~= nil and client.initialized) or exited ~= nil
  end, 20)
  assert(ready and exited == nil, "codenav lsp did not initialize: " .. vim.inspect(exited))
  local client = vim.lsp.get_client_by_id(client_id)
  answers.server_info = client.server_info or vim.NIL -- not kept by 0.7; later versions do

  -- src/shop/cli.py line 9: `order.add(product).total()`, the cursor on `total`
  local bufnr, params = at(client_id, "src/shop/cli.py", 9, "total")
  answers.definition_position = params.position
  ask(client, bufnr, "definition", "textDocument/definition", params)

  -- src/shop/models.py line 10: `def save(self):` of Base
  bufnr, params = at(client_id, "src/shop/models.py", 10, "save")
  params.context = { includeDeclaration = false }
  ask(client, bufnr, "references", "textDocument/references", params)

  -- line 34: `def add(...)` of Order
  bufnr, params = at(client_id, "src/shop/models.py", 34, "add")
  ask(client, bufnr, "hover", "textDocument/hover", params)

  ask(client, bufnr, "document_symbols", "textDocument/documentSymbol",
    { textDocument = vim.lsp.util.make_text_document_params() })
  ask(client, bufnr, "workspace_symbols", "workspace/symbol", { query = "Order" })

  -- Unsaved edits (didChange): five lines typed at the top of cli.py, not written. The
  -- definition is asked from where the buffer now has `order.add(product).total()` (line 14),
  -- and Base.save's references must show cli.py's use where the buffer has it.
  bufnr, params = at(client_id, "src/shop/cli.py", 9, "total")
  vim.api.nvim_buf_set_lines(bufnr, 0, 0, true,
    { "# one", "# two", "# three", "# four", "# five" })
  local line = vim.api.nvim_buf_get_lines(bufnr, 13, 14, true)[1]
  vim.api.nvim_win_set_cursor(0, { 14, string.find(line, "total", 1, true) - 1 })
  params = vim.lsp.util.make_position_params()
  answers.changed_position = params.position
  ask(client, bufnr, "definition_after_change", "textDocument/definition", params)
  bufnr, params = at(client_id, "src/shop/models.py", 10, "save")
  params.context = { includeDeclaration = false }
  ask(client, bufnr, "references_after_change", "textDocument/references", params)
  answers.modified = vim.fn.getbufvar(vim.fn.bufnr(root .. "/src/shop/cli.py"), "&modified") == 1

  client.stop()
  answers.stopped = vim.wait(10000, function() return exited ~= nil end, 20)
  answers.exit = exited
end

local ok, err = pcall(run)
if not ok then
  answers.failure = tostring(err)
  finish(1)
else
  finish(0)
end
