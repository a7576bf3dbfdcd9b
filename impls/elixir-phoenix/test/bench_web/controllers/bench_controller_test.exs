defmodule BenchWeb.BenchControllerTest do
  use BenchWeb.ConnCase, async: true

  @mib 1_048_576

  defp body_of_size(size) do
    prefix = ~s({"name":"a","age":1,"pad":")
    prefix <> String.duplicate("x", size - byte_size(prefix) - 2) <> ~s("})
  end

  describe "GET /plaintext" do
    test "answers the 13 bytes as text/plain", %{conn: conn} do
      conn = get(conn, "/plaintext")
      assert response(conn, 200) == "Hello, World!"
      assert response_content_type(conn, :text) =~ "text/plain"
    end
  end

  describe "GET /json" do
    test "answers the message object", %{conn: conn} do
      assert json_response(get(conn, "/json"), 200) == %{"message" => "Hello, World!"}
    end
  end

  describe "GET /user/:id" do
    test "echoes the percent-decoded id as a string, + stays literal", %{conn: conn} do
      assert json_response(get(conn, "/user/42"), 200) == %{"id" => "42", "name" => "User 42"}
      assert json_response(get(conn, "/user/caf%C3%A9"), 200)["id"] == "café"
      assert json_response(get(conn, "/user/John%20Doe+x"), 200)["id"] == "John Doe+x"
    end

    test "answers 400 when the decoded id is not UTF-8", %{conn: conn} do
      assert %{"error" => _} = json_response(get(conn, "/user/%FF"), 400)
    end

    test "answers 404 JSON for /user/ and /user/a/b" do
      for path <- ["/user/", "/user/a/b"] do
        assert %{"error" => _} = json_response(get(build_conn(), path), 404)
      end
    end
  end

  describe "POST /validate success" do
    test "echoes name and age with valid: true", %{conn: conn} do
      assert json_response(post_json(conn, ~s({"name":"  Zoë 😀 ","age":0})), 200) ==
               %{"name" => "  Zoë 😀 ", "age" => 0, "valid" => true}

      conn = post_json(build_conn(), ~s({"name":"a","age":150,"x":[1,{}]}))
      assert json_response(conn, 200) == %{"name" => "a", "age" => 150, "valid" => true}
    end

    test "keeps the last of duplicate keys", %{conn: conn} do
      conn = post_json(conn, ~s({"name":"first","age":1,"name":"last","x":{"a":1,"a":2}}))
      assert json_response(conn, 200)["name"] == "last"
    end

    test "accepts an integral float as the integer", %{conn: conn} do
      assert json_response(post_json(conn, ~s({"name":"a","age":3e1})), 200)["age"] === 30
    end

    test "accepts a body of exactly 1 MiB", %{conn: conn} do
      assert json_response(post_json(conn, body_of_size(@mib)), 200)["valid"] == true
    end

    test "accepts application/json with parameters, in any case", %{conn: conn} do
      conn =
        conn
        |> put_req_header("content-type", "Application/JSON; charset=utf-8")
        |> post("/validate", ~s({"name":"a","age":1}))

      assert json_response(conn, 200)["name"] == "a"
    end
  end

  describe "POST /validate answers 400" do
    for {label, body} <- [
          {"an empty body", ""},
          {"a top-level array", "[]"},
          {"null", "null"},
          {"a missing name", ~s({"age":1})},
          {"an empty name", ~s({"name":"","age":1})},
          {"a non-string name", ~s({"name":1,"age":1})},
          {"a missing age", ~s({"name":"a"})},
          {"a string age", ~s({"name":"a","age":"30"})},
          {"a boolean age", ~s({"name":"a","age":true})},
          {"a fractional age", ~s({"name":"a","age":30.5})},
          {"an age over 150", ~s({"name":"a","age":151})},
          {"a negative integral float", ~s({"name":"a","age":-1.0})},
          {"a huge integer age", ~s({"name":"a","age":99999999999999999999})},
          {"an upper-case key", ~s({"NAME":"a","AGE":1})}
        ] do
      test "for #{label}", %{conn: conn} do
        assert %{"error" => message} = json_response(post_json(conn, unquote(body)), 400)
        assert is_binary(message)
      end
    end

    test "for malformed JSON and deep nesting, raised by Plug.Parsers" do
      too_deep = String.duplicate("[", 1001) <> String.duplicate("]", 1001)

      for body <- [
            ~s({"name":'a'}),
            ~s({"name":"a","age":1} x),
            ~s({"name":"a","age":NaN}),
            ~s({"name":"a","age":1e400}),
            ~s({"name":"a\xFF","age":1}),
            String.duplicate("[", 100_000),
            ~s({"name":"a","age":1,"x":#{too_deep}})
          ] do
        {400, _headers, error} = assert_error_sent(400, fn -> post_json(build_conn(), body) end)
        assert %{"error" => _} = Jason.decode!(error)
      end
    end
  end

  describe "POST /validate media type and size" do
    test "answers 415 without a Content-Type or with another media type" do
      {415, _headers, _body} = assert_error_sent(415, fn -> post(build_conn(), "/validate") end)

      for content_type <- ["text/plain", "application/jsonx", "application/vnd.api+json"] do
        conn = put_req_header(build_conn(), "content-type", content_type)

        {415, _headers, body} =
          assert_error_sent(415, fn -> post(conn, "/validate", ~s({"name":"a","age":1})) end)

        assert %{"error" => _} = Jason.decode!(body)
      end
    end

    test "answers 413 one byte over 1 MiB" do
      {413, _headers, body} =
        assert_error_sent(413, fn -> post_json(build_conn(), body_of_size(@mib + 1)) end)

      assert %{"error" => _} = Jason.decode!(body)
    end
  end

  describe "routing" do
    test "a known path with another method answers 405 with Allow", %{conn: conn} do
      conn = post(conn, "/plaintext")
      assert %{"error" => _} = json_response(conn, 405)
      assert get_resp_header(conn, "allow") == ["GET"]
      assert json_response(get(build_conn(), "/validate"), 405)
    end

    test "an unknown path answers 404 JSON", %{conn: conn} do
      assert %{"error" => _} = json_response(get(conn, "/nope"), 404)
    end

    test "a raw path that is not UTF-8 still gets a JSON error" do
      assert json_response(get(build_conn(), "/n\xFFpe"), 404)["error"] =~ "/n%FFpe"
      assert json_response(put(build_conn(), "/user/\xFF"), 405)["error"] =~ "/user/%FF"
    end
  end
end
