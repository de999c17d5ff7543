-- nvim-client.lua - drives `plate lsp` with Neovim's built-in LSP client
-- (Debian's neovim 0.7, headless): a second client no one here wrote.
--
--   PLATE=path/to/plate SCRIPT=copy.plate \
--     nvim --headless -n -u NONE -i NONE -c 'luafile nvim-client.lua'
--
-- Neovim 0.7 always keeps an lsp.log under $XDG_CACHE_HOME/nvim; the lit
-- test points that at its own temporary directory.
--
-- Opens SCRIPT (a copy of the IL-6 example; the buffer is never written),
-- types one character as Neovim's own incremental sync sends it, and prints
-- the diagnostics, a hover, a definition and a quick fix, one fact a line,
-- for FileCheck (test/lit/lsp/neovim.test). Every wait has a timeout as a
-- safety net only; any Lua error exits non-zero instead of leaving Neovim
-- waiting for input.
local function run()
  local out = {}
  local function log(text) table.insert(out, text) end
  local published = {}
  vim.lsp.handlers['textDocument/publishDiagnostics'] = function(_, result)
    table.insert(published, result)
  end
  local id = vim.lsp.start_client({ name = 'plate', cmd = { os.getenv('PLATE'), 'lsp' } })
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SCRIPT')))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  assert(vim.wait(10000, function() return client.initialized and #published > 0 end, 5),
         'no diagnostics after didOpen')
  log('sync: ' .. tostring(client.server_capabilities.textDocumentSync.change))
  log('open: ' .. #published[#published].diagnostics .. ' diagnostic(s)')

  -- Line 25 is `3. dispense 100 uL of detection_ab to all`: type `x`
  -- after the name.
  local before = #published
  vim.api.nvim_buf_set_text(buf, 24, 34, 24, 34, { 'x' })
  assert(vim.wait(10000, function() return #published > before end, 5), 'no diagnostics after the edit')
  for _, d in ipairs(published[#published].diagnostics) do
    log(string.format('diagnostic: %s %d:%d %s', d.code, d.range.start.line + 1,
                      d.range.start.character, d.message))
  end

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, params)
    params.textDocument = { uri = uri }
    local replies = vim.lsp.buf_request_sync(buf, method, params, 10000)
    assert(replies and replies[id], method .. ': no reply')
    assert(not replies[id].err, method .. ': ' .. vim.inspect(replies[id].err))
    return replies[id].result
  end
  local hover = request('textDocument/hover', { position = { line = 22, character = 12 } })
  log('hover: ' .. hover.contents.value)
  for _, location in ipairs(request('textDocument/definition', { position = { line = 23, character = 33 } })) do
    log('definition: line ' .. (location.range.start.line + 1))
  end
  local at = { line = 24, character = 22 }
  for _, action in ipairs(request('textDocument/codeAction',
                                  { range = { start = at, ['end'] = at }, context = { diagnostics = {} } })) do
    log('code action: ' .. action.kind .. ' ' .. action.title)
  end

  vim.lsp.stop_client(id)
  assert(vim.wait(10000, function() return vim.lsp.client_is_stopped(id) end, 5), 'the server did not stop')
  log('stopped: true')
  io.stdout:write(table.concat(out, '\n') .. '\n')
end

local ok, err = pcall(run)
if not ok then
  io.stderr:write('nvim-client.lua: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
