defmodule Bench.JSON do
  @moduledoc """
  The JSON decoder of `Plug.Parsers` on POST /validate: Jason, with two rules
  its defaults do not give.

    * Duplicate keys: the last one wins, as in ECMAScript's `JSON.parse`. Jason's
      maps keep the first, so objects are decoded as `Jason.OrderedObject`s and
      turned into maps here.
    * Nesting: Jason decodes any depth without crashing, but a document nested
      deeper than any real request is refused, as Jackson or serde_json do.

  Both errors surface as `Plug.Parsers.ParseError`, a 400.
  """

  @max_depth 1000

  defmodule NestingTooDeepError do
    defexception [:max_depth]

    @impl true
    def message(%{max_depth: max_depth}),
      do: "arrays and objects are nested more than #{max_depth} levels deep"
  end

  def decode!(body) do
    body
    |> Jason.decode!(objects: :ordered_objects)
    |> to_terms(@max_depth)
  end

  defp to_terms(container, 0)
       when is_list(container) or is_struct(container, Jason.OrderedObject),
       do: raise(NestingTooDeepError, max_depth: @max_depth)

  # Map.new/2 keeps the last of duplicate keys.
  defp to_terms(%Jason.OrderedObject{values: pairs}, depth),
    do: Map.new(pairs, fn {key, value} -> {key, to_terms(value, depth - 1)} end)

  defp to_terms(array, depth) when is_list(array),
    do: Enum.map(array, &to_terms(&1, depth - 1))

  defp to_terms(scalar, _depth), do: scalar
end
