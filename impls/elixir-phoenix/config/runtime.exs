import Config

if config_env() == :prod do
  # A bad setting stops the boot with one clear line instead of a boot crash dump.
  abort = fn message ->
    IO.puts(:stderr, "bench: " <> message)
    System.halt(64)
  end

  host = System.get_env("HOST", "0.0.0.0")

  ip =
    case :inet.parse_address(String.to_charlist(host)) do
      {:ok, ip} ->
        ip

      {:error, _} ->
        case :inet.getaddr(String.to_charlist(host), :inet) do
          {:ok, ip} ->
            ip

          {:error, reason} ->
            abort.("HOST=#{host} is neither an IP address nor a resolvable host name (#{reason})")
        end
    end

  port =
    case Integer.parse(System.get_env("PORT", "8080")) do
      {port, ""} when port in 1..65_535 -> port
      _ -> abort.("PORT=#{System.get_env("PORT")} is not a TCP port number (1-65535)")
    end

  config :bench, BenchWeb.Endpoint,
    server: true,
    http: [
      ip: ip,
      port: port,
      # A 16 KiB request target is still a request to answer, not a 414.
      http_1_options: [max_request_line_length: 65_536]
    ]
end
