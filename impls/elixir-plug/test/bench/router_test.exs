defmodule Bench.RouterTest do
  use ExUnit.Case, async: true

  import Plug.Conn
  import Plug.Test

  @opts Bench.Router.init([])
  @mib 1_048_576

  # Runs a request through the router, as Bandit would. Plug.ErrorHandler answers
  # a raised error, then re-raises it; the answer is what the client gets.
  defp run(conn) do
    try do
      Bench.Router.call(conn, @opts)
    rescue
      Plug.Conn.WrapperError -> :raised_after_answering
    end

    {status, headers, body} = sent_resp(conn)
    {status, Map.new(headers), body}
  end

  defp get(path), do: run(conn(:get, path))

  defp post_json(body, content_type \\ "application/json") do
    :post |> conn("/validate", body) |> put_req_header("content-type", content_type) |> run()
  end

  defp body_of_size(size) do
    prefix = ~s({"name":"a","age":1,"pad":")
    prefix <> String.duplicate("x", size - byte_size(prefix) - 2) <> ~s("})
  end

  defp assert_json({status, headers, body}, expected_status) do
    assert status == expected_status, "expected #{expected_status}, got #{status}: #{body}"
    assert headers["content-type"] == "application/json; charset=utf-8"
    Jason.decode!(body)
  end

  defp assert_error(answer, status) do
    assert %{"error" => message} = assert_json(answer, status)
    assert is_binary(message)
  end

  describe "GET /plaintext and /json" do
    test "answer the 13 bytes as text/plain and the message object" do
      assert {200, %{"content-type" => "text/plain; charset=utf-8"}, "Hello, World!"} =
               get("/plaintext")

      assert assert_json(get("/json"), 200) == %{"message" => "Hello, World!"}
    end
  end

  describe "GET /user/:id" do
    test "echoes the segment percent-decoded once, as a string" do
      for {path, id} <- [
            {"/user/42", "42"},
            {"/user/007?x=1", "007"},
            {"/user/caf%C3%A9", "café"},
            {"/user/100%2541", "100%41"},
            {"/user/John%20Doe+x", "John Doe+x"},
            {"/user/%zz", "%zz"}
          ] do
        assert assert_json(get(path), 200) == %{"id" => id, "name" => "User " <> id}
      end
    end

    test "answers 400 when the decoded id is not UTF-8" do
      assert_error(get("/user/%FF%C3%28"), 400)
    end
  end

  describe "routing" do
    test "unknown paths, /user/ and /user/a/b answer 404, paths are case-sensitive" do
      for path <- ["/nope", "/user/", "/user/a/b", "/plaintext/extra", "/PLAINTEXT", "/USER/42"] do
        assert_error(get(path), 404)
      end

      assert_error(run(conn(:post, "/nope")), 404)
    end

    test "a known path with another method answers 405 with Allow" do
      for {method, path, allow} <- [
            {:post, "/plaintext", "GET"},
            {:delete, "/json", "GET"},
            {:put, "/user/42", "GET"},
            {:get, "/validate", "POST"}
          ] do
        answer = run(conn(method, path))
        assert_error(answer, 405)
        assert elem(answer, 1)["allow"] == allow
      end
    end

    test "a raw path that is not UTF-8 still gets a JSON error" do
      assert assert_json(get("/n\xFFpe"), 404)["error"] =~ "/n%FFpe"
    end
  end

  describe "POST /validate success" do
    test "echoes name and age with valid: true, ignoring unknown keys" do
      assert assert_json(post_json(~s({"name":"  Zoë 😀 \\n","age":0,"x":[1,{}]})), 200) ==
               %{"name" => "  Zoë 😀 \n", "age" => 0, "valid" => true}
    end

    test "keys are case-sensitive and the last duplicate key wins" do
      assert assert_json(post_json(~s({"Name":"x","name":"y","age":150})), 200)["name"] == "y"
      assert assert_json(post_json(~s({"name":"a","age":1,"name":"last"})), 200)["name"] == "last"
    end

    test "an integral float is the integer" do
      for {age, expected} <- [{"30.0", 30}, {"3e1", 30}, {"1.5e2", 150}] do
        {200, _headers, body} = post_json(~s({"name":"a","age":#{age}}))
        assert body =~ ~s("age":#{expected},)
      end
    end

    test "application/json with parameters, in any case" do
      assert_json(post_json(~s({"name":"a","age":1}), "Application/JSON; charset=utf-8"), 200)
    end

    test "a body of exactly 1 MiB is accepted, one byte more is 413" do
      assert assert_json(post_json(body_of_size(@mib)), 200)["valid"] == true
      assert_error(post_json(body_of_size(@mib + 1)), 413)
    end
  end

  describe "POST /validate answers 400" do
    for {label, body} <- [
          {"an empty body", ""},
          {"a top-level array", "[]"},
          {"null", "null"},
          {"a number", "42"},
          {"a missing name", ~s({"age":1})},
          {"an empty name", ~s({"name":"","age":1})},
          {"a non-string name", ~s({"name":1,"age":1})},
          {"a missing age", ~s({"name":"a"})},
          {"a string age", ~s({"name":"a","age":"30"})},
          {"a boolean age", ~s({"name":"a","age":true})},
          {"a null age", ~s({"name":"a","age":null})},
          {"a fractional age", ~s({"name":"a","age":30.5})},
          {"an age over 150", ~s({"name":"a","age":151})},
          {"an integral float out of bounds", ~s({"name":"a","age":-1.0})},
          {"a huge integer age", ~s({"name":"a","age":99999999999999999999})},
          {"upper-case keys", ~s({"NAME":"a","AGE":1})}
        ] do
      test "for #{label}" do
        assert_error(post_json(unquote(body)), 400)
      end
    end

    test "for what is not strict JSON, raised by Plug.Parsers" do
      for body <- [
            ~s({"name":'a'}),
            ~s({"name":"a","age":1,}),
            ~s({"name":"a","age":1} x),
            ~s({"name":"a","age":NaN}),
            ~s({"name":"a","age":1,"x":-Infinity}),
            ~s({"name":"a","age":1e400}),
            ~s({"name":"a\xFF","age":1}),
            ~s({"name":"a\u0001","age":1}),
            ~s({"name":"\\ud800","age":1}),
            String.duplicate("[", 100_000),
            ~s({"name":"a","age":1,"x":#{String.duplicate("[", 1001)}#{String.duplicate("]", 1001)}})
          ] do
        assert_error(post_json(body), 400)
      end
    end
  end

  describe "POST /validate media type" do
    test "answers 415 without a Content-Type or with another media type, whatever the body" do
      assert_error(run(conn(:post, "/validate", ~s({"name":"a","age":1}))), 415)

      for content_type <- [
            "text/plain",
            "application/jsonx",
            "text/json",
            "application/problem+json",
            "application/vnd.api+json"
          ],
          body <- [~s({"name":"a","age":1}), "{", "[]"] do
        assert_error(post_json(body, content_type), 415)
      end
    end
  end

  describe "Bench.BodyReader" do
    # Bandit answers :more to a chunked body that ends exactly at the limit, as it
    # has not read the final chunk yet; this adapter does the same.
    defmodule ChunkedAdapter do
      def read_req_body(body, opts) do
        case Keyword.fetch!(opts, :length) do
          length when byte_size(body) >= length ->
            <<chunk::binary-size(length), rest::binary>> = body
            {:more, chunk, rest}

          _length ->
            {:ok, body, ""}
        end
      end
    end

    defp chunked_conn(body), do: %{conn(:post, "/validate") | adapter: {ChunkedAdapter, body}}

    test "tells a body of exactly the limit from a longer one" do
      assert {:ok, "0123456789", _conn} =
               Bench.BodyReader.read_body(chunked_conn("0123456789"), length: 10)

      assert {:more, "0123456789", _conn} =
               Bench.BodyReader.read_body(chunked_conn("0123456789x"), length: 10)
    end
  end
end
