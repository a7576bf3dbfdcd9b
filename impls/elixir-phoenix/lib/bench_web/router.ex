defmodule BenchWeb.Router do
  use BenchWeb, :router

  # The API always answers JSON, whatever the Accept header says.
  pipeline :api do
    plug :put_format, "json"
  end

  pipeline :json_body do
    plug :require_json_content_type

    plug Plug.Parsers,
      parsers: [:json],
      json_decoder: BenchWeb.JSON,
      length: 1_048_576,
      body_reader: {BenchWeb.BodyReader, :read_body, []},
      # Every decoded document lands under "_json", so the controller can tell
      # an object from `[]`, `null` or `42`.
      nest_all_json: true
  end

  scope "/", BenchWeb do
    get "/plaintext", BenchController, :plaintext
  end

  scope "/", BenchWeb do
    pipe_through :api

    get "/json", BenchController, :json
    get "/user/:id", BenchController, :user
  end

  scope "/", BenchWeb do
    pipe_through [:api, :json_body]

    post "/validate", BenchController, :validate
  end

  # Phoenix answers 404 when a path exists only under other methods; these
  # catch-alls come after the real routes and answer 405 instead.
  scope "/", BenchWeb do
    match :*, "/plaintext", MethodNotAllowed, "GET"
    match :*, "/json", MethodNotAllowed, "GET"
    match :*, "/user/:id", MethodNotAllowed, "GET"
    match :*, "/validate", MethodNotAllowed, "POST"
  end

  # Plug.Parsers would also parse `application/*+json` and skip requests
  # without a Content-Type; the contract accepts application/json only.
  defp require_json_content_type(conn, _opts) do
    content_type = conn |> get_req_header("content-type") |> List.first()

    case content_type && Plug.Conn.Utils.content_type(content_type) do
      {:ok, "application", "json", _params} -> conn
      _ -> raise Plug.Parsers.UnsupportedMediaTypeError, media_type: content_type || "(none)"
    end
  end
end
